package io.ironloop;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Direct buffers given back for reuse, by exact capacity. Snapshots of hundreds of MiB are made, sent and
 * received over and over in buffers of the same sizes; a new direct buffer costs the kernel's fresh pages and
 * the JVM's zeroing (three to five times a memcpy of the same bytes on the machines we measured), a reused one
 * costs nothing. A buffer is given back only by the code that owns it and holds no other reference to it:
 * whatever it held may be overwritten by the next {@link #take}.
 *
 * <p>The pool keeps at most {@code limit} bytes; a buffer beyond that is left to the garbage collector.
 * Thread-safe.
 */
public final class BufferPool {
    private final long limit;
    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
    private long kept;

    /** @param limit the most bytes kept for reuse */
    public BufferPool(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a buffer pool's limit is at least 0 bytes, not " + limit);
        }
        this.limit = limit;
    }

    /**
     * A direct little-endian buffer of exactly {@code capacity} bytes, position 0, limit {@code capacity}: a
     * reused one when the pool holds one of that capacity (its old bytes still in it), otherwise a new one.
     */
    public ByteBuffer take(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a buffer's capacity is at least 0 bytes, not " + capacity);
        }
        synchronized (this) {
            ArrayDeque<ByteBuffer> q = free.get(capacity);
            if (q != null && !q.isEmpty()) {
                kept -= capacity;
                return q.poll().clear().order(ByteOrder.LITTLE_ENDIAN);
            }
        }
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Gives {@code buffer} back; the caller keeps no reference to it. Heap and read-only buffers are ignored.
     */
    public void give(ByteBuffer buffer) {
        if (buffer == null || !buffer.isDirect() || buffer.isReadOnly()) {
            return;
        }
        int capacity = buffer.capacity();
        synchronized (this) {
            if (kept + capacity > limit) {
                return;
            }
            kept += capacity;
            free.computeIfAbsent(capacity, c -> new ArrayDeque<>()).add(buffer);
        }
    }

    /** Bytes kept for reuse now. */
    public synchronized long keptBytes() {
        return kept;
    }
}
