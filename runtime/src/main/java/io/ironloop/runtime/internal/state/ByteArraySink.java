package io.ironloop.runtime.internal.state;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A growable little-endian heap buffer that an entity or a block writes its state into (when published, when snapshotted). */
public final class ByteArraySink extends BufferSink {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
    private ByteBuffer buffer = EMPTY;
    /** What the next first write allocates: the size taken last, so same-sized states fill an exact buffer. */
    private int expected = 256;

    /**
     * The bytes written since the last take, as an exactly sized array; the sink is empty afterwards. When the
     * buffer was filled exactly (a state of the same size as the one taken before), the buffer itself is handed
     * over, so a snapshot costs one copy of the state, not two.
     */
    public byte[] take() {
        int n = buffer.position();
        byte[] out = n == buffer.capacity() ? buffer.array() : java.util.Arrays.copyOf(buffer.array(), n);
        buffer = EMPTY;
        expected = Math.max(n, 16);
        return out;
    }

    void reset() {
        if (buffer != EMPTY) {
            buffer.clear();
        }
    }

    /** The bytes written since the last reset, as a read-only view. */
    ByteBuffer bytes() {
        return buffer.duplicate().flip().asReadOnlyBuffer();
    }

    @Override
    ByteBuffer room(long bytes) {
        if (buffer == EMPTY && bytes > 0) {
            buffer = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, Math.max(bytes, expected))).order(ByteOrder.LITTLE_ENDIAN);
        }
        if (buffer.remaining() < bytes) {
            long need = buffer.position() + bytes;
            if (need > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("an entity's state exceeds 2 GiB");
            }
            ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * buffer.capacity())))
                    .order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(buffer.flip());
            buffer = bigger;
        }
        return buffer;
    }
}
