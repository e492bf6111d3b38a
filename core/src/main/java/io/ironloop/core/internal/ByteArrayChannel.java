package io.ironloop.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;

/** A seekable channel over a growable byte array: the in-memory store's files. */
final class ByteArrayChannel implements SeekableByteChannel {
    private byte[] bytes;
    private int size;
    private int position;
    private boolean open = true;
    private final boolean writable;

    private ByteArrayChannel(byte[] bytes, int size, boolean writable) {
        this.bytes = bytes;
        this.size = size;
        this.writable = writable;
    }

    static ByteArrayChannel forWriting() {
        return new ByteArrayChannel(new byte[4096], 0, true);
    }

    static ByteArrayChannel forReading(byte[] content) {
        return new ByteArrayChannel(content, content.length, false);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        int n = Math.min(dst.remaining(), size - position);
        dst.put(bytes, position, n);
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        long end = (long) position + n;
        if (end > Integer.MAX_VALUE - 8) {
            throw new IOException("in-memory files are limited to 2 GiB");
        }
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(end, 2L * bytes.length)));
        }
        src.get(bytes, position, n);
        position += n;
        size = Math.max(size, position);
        return n;
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = (int) Math.min(newPosition, Integer.MAX_VALUE - 8);
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
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

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
