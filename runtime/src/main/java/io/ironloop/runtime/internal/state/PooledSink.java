package io.ironloop.runtime.internal.state;

import io.ironloop.BufferPool;
import java.nio.ByteBuffer;

/**
 * A sink that writes a snapshot image straight into a direct buffer of a {@link BufferPool}: a block's image
 * costs one copy of its state into memory that was already touched (the buffers of the snapshot before the
 * last, given back when the last one committed), not a fresh allocation, and goes to a partner's socket
 * without another copy. Sized by what the image took last time; grows if the state grew.
 */
public final class PooledSink extends BufferSink {
    private static final int SMALLEST = 64;
    private final BufferPool pool;
    private ByteBuffer buffer;

    public PooledSink(BufferPool pool) {
        this.pool = pool;
    }

    /** Starts an image expected to take {@code expected} bytes. */
    public void begin(int expected) {
        if (buffer != null) {
            throw new IllegalStateException("the image before was not finished");
        }
        buffer = pool.take(Math.max(expected, SMALLEST));
    }

    /** The bytes written since {@link #begin}, position 0; the buffer is the caller's now. */
    public ByteBuffer finish() {
        ByteBuffer b = buffer.flip();
        buffer = null;
        return b;
    }

    @Override
    ByteBuffer room(long bytes) {
        if (buffer.remaining() < bytes) {
            long need = buffer.position() + bytes;
            if (need > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a block's state exceeds 2 GiB");
            }
            ByteBuffer bigger = pool.take((int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * buffer.capacity())));
            bigger.put(buffer.flip());
            pool.give(buffer);
            buffer = bigger;
        }
        return buffer;
    }
}
