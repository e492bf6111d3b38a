package io.ironloop.runtime.internal.blocks;

import io.ironloop.core.StateSink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A {@link StateSink} into a reusable little-endian heap buffer; {@link #take()} returns what was written, exactly sized. */
public final class HeapSink implements StateSink {
    private ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);

    private void room(long bytes) {
        if (b.remaining() >= bytes) {
            return;
        }
        long need = (long) b.position() + bytes;
        if (need > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a block's snapshot is limited to 2 GiB; split the domain into more blocks");
        }
        ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * b.capacity())))
                .order(ByteOrder.LITTLE_ENDIAN);
        bigger.put(b.flip());
        b = bigger;
    }

    /** The bytes written since the last take, as a new array; the sink is empty afterwards. */
    public byte[] take() {
        byte[] out = Arrays.copyOf(b.array(), b.position());
        b.clear();
        return out;
    }

    @Override
    public void putLong(long v) {
        room(8);
        b.putLong(v);
    }

    @Override
    public void putDouble(double v) {
        room(8);
        b.putDouble(v);
    }

    @Override
    public void putInt(int v) {
        room(4);
        b.putInt(v);
    }

    @Override
    public void putLongs(long[] values) {
        room(8L * values.length);
        b.asLongBuffer().put(values);
        b.position(b.position() + 8 * values.length);
    }

    @Override
    public void putDoubles(double[] values) {
        room(8L * values.length);
        b.asDoubleBuffer().put(values);
        b.position(b.position() + 8 * values.length);
    }

    @Override
    public void putInts(int[] values) {
        room(4L * values.length);
        b.asIntBuffer().put(values);
        b.position(b.position() + 4 * values.length);
    }

    @Override
    public void putBytes(ByteBuffer bytes) {
        room(bytes.remaining());
        b.put(bytes.duplicate());
    }
}
