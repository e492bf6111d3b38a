package io.ironloop.benchmarks.format;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * A fixed-capacity in-memory file over a direct buffer, so codec benchmarks measure encoding and
 * decoding rather than the kernel. Writing past the capacity fails; {@link #reset()} empties it.
 */
final class MemoryFile implements SeekableByteChannel {
    private final ByteBuffer data;
    private int size;
    private int position;

    MemoryFile(int capacity) {
        data = ByteBuffer.allocateDirect(capacity);
    }

    void reset() {
        size = 0;
        position = 0;
    }

    @Override
    public int read(ByteBuffer dst) {
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = Math.min(dst.remaining(), size - position);
        dst.put(data.slice(position, n));
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        int n = src.remaining();
        data.put(position, src, src.position(), n);
        src.position(src.limit());
        position += n;
        size = Math.max(size, position);
        return n;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
        position = (int) newPosition;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        size = (int) Math.min(size, newSize);
        return this;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
    }
}
