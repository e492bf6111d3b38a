package io.ironloop.runtime.internal.blocks;

import io.ironloop.core.StateSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A {@link StateSource} over a snapshot's bytes; reading past the end names the snapshot. */
public final class HeapSource implements StateSource {
    private final String what;
    private final ByteBuffer b;

    public HeapSource(String what, byte[] bytes) {
        this.what = what;
        this.b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private ByteBuffer need(long bytes) {
        if (b.remaining() < bytes) {
            throw new IllegalStateException(what + ": reading " + bytes + " bytes at offset " + b.position() + " of " + b.capacity()
                    + " (the snapshot is shorter than what restore reads: save and restore disagree)");
        }
        return b;
    }

    @Override
    public long getLong() {
        return need(8).getLong();
    }

    @Override
    public double getDouble() {
        return need(8).getDouble();
    }

    @Override
    public int getInt() {
        return need(4).getInt();
    }

    @Override
    public void getLongs(long[] into) {
        need(8L * into.length).asLongBuffer().get(into);
        b.position(b.position() + 8 * into.length);
    }

    @Override
    public void getDoubles(double[] into) {
        need(8L * into.length).asDoubleBuffer().get(into);
        b.position(b.position() + 8 * into.length);
    }

    @Override
    public void getInts(int[] into) {
        need(4L * into.length).asIntBuffer().get(into);
        b.position(b.position() + 4 * into.length);
    }

    @Override
    public void getBytes(ByteBuffer into) {
        int n = into.remaining();
        ByteBuffer slice = need(n).slice().limit(n);
        into.put(slice);
        b.position(b.position() + n);
    }

    @Override
    public long remaining() {
        return b.remaining();
    }
}
