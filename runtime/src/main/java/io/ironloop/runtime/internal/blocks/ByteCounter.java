package io.ironloop.runtime.internal.blocks;

import io.ironloop.core.StateSink;
import java.nio.ByteBuffer;

/** A {@link StateSink} that only counts what a save writes: the size of a state without copying it. */
public final class ByteCounter implements StateSink {
    private long bytes;

    /** The bytes counted so far. */
    public long bytes() {
        return bytes;
    }

    @Override
    public void putLong(long v) {
        bytes += Long.BYTES;
    }

    @Override
    public void putDouble(double v) {
        bytes += Double.BYTES;
    }

    @Override
    public void putInt(int v) {
        bytes += Integer.BYTES;
    }

    @Override
    public void putLongs(long[] values) {
        bytes += (long) Long.BYTES * values.length;
    }

    @Override
    public void putDoubles(double[] values) {
        bytes += (long) Double.BYTES * values.length;
    }

    @Override
    public void putInts(int[] values) {
        bytes += (long) Integer.BYTES * values.length;
    }

    @Override
    public void putBytes(ByteBuffer b) {
        bytes += b.remaining();
    }
}
