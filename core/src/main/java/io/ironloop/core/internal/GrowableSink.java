package io.ironloop.core.internal;

import io.ironloop.core.StateSink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A {@link StateSink} writing little-endian into a direct buffer that doubles when full. */
final class GrowableSink implements StateSink {
    private ByteBuffer b;

    GrowableSink(ByteBuffer initial) {
        this.b = initial.order(ByteOrder.LITTLE_ENDIAN);
    }

    ByteBuffer buffer() {
        return b;
    }

    private void room(long bytes) {
        if (b.remaining() >= bytes) {
            return;
        }
        long need = (long) b.position() + bytes;
        if (need > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a snapshotable entity's state is limited to 2 GiB");
        }
        ByteBuffer bigger = ProtectedEntry.allocate(Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * b.capacity())));
        bigger.put(b.flip());
        b = bigger;
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
