package io.ironloop.runtime.internal.state;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.ironloop.core.StateSink;

/** A growable little-endian heap buffer that an entity or a block writes its state into (when published, when snapshotted). */
public final class ByteArraySink implements StateSink {
    private ByteBuffer buffer = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

    /** The bytes written since the last reset, as a new exactly sized array; the sink is empty afterwards. */
    public byte[] take() {
        byte[] out = java.util.Arrays.copyOf(buffer.array(), buffer.position());
        buffer.clear();
        return out;
    }

    void reset() {
        buffer.clear();
    }

    /** The bytes written since the last reset, as a read-only view. */
    ByteBuffer bytes() {
        return buffer.duplicate().flip().asReadOnlyBuffer();
    }

    private ByteBuffer room(long bytes) {
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

    @Override
    public void putLong(long v) {
        room(8).putLong(v);
    }

    @Override
    public void putDouble(double v) {
        room(8).putDouble(v);
    }

    @Override
    public void putInt(int v) {
        room(4).putInt(v);
    }

    @Override
    public void putLongs(long[] values) {
        room(8L * values.length).asLongBuffer().put(values);
        buffer.position(buffer.position() + 8 * values.length);
    }

    @Override
    public void putDoubles(double[] values) {
        room(8L * values.length).asDoubleBuffer().put(values);
        buffer.position(buffer.position() + 8 * values.length);
    }

    @Override
    public void putInts(int[] values) {
        room(4L * values.length).asIntBuffer().put(values);
        buffer.position(buffer.position() + 4 * values.length);
    }

    @Override
    public void putBytes(ByteBuffer bytes) {
        room(bytes.remaining()).put(bytes.duplicate());
    }
}
