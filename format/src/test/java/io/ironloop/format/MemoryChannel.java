package io.ironloop.format;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;

/** An in-memory {@link SeekableByteChannel} for fast tests; not a {@code FileChannel}, so it exercises the seek-then-read path. */
public final class MemoryChannel implements SeekableByteChannel {
    private byte[] data;
    private int size;
    private long position;
    private boolean open = true;

    public MemoryChannel() {
        this(new byte[0]);
    }

    public MemoryChannel(byte[] content) {
        data = content.clone();
        size = content.length;
    }

    @Override
    public int read(ByteBuffer dst) throws ClosedChannelException {
        ensureOpen();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        dst.put(data, (int) position, n);
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws ClosedChannelException {
        ensureOpen();
        int n = src.remaining();
        long end = position + n;
        if (end > data.length) {
            data = Arrays.copyOf(data, (int) Math.max(end, data.length * 2L));
        }
        src.get(data, (int) position, n);
        position = end;
        size = (int) Math.max(size, end);
        return n;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
        position = newPosition;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        size = (int) Math.min(size, newSize);
        position = Math.min(position, size);
        return this;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(data, size);
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
