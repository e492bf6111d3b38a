package io.ironloop.core;

import java.nio.ByteBuffer;

/** Where a {@link Snapshotable} writes its state; values are stored little-endian, in call order. */
public interface StateSink {
    void putLong(long v);

    void putDouble(double v);

    void putInt(int v);

    void putLongs(long[] values);

    void putDoubles(double[] values);

    void putInts(int[] values);

    /** Writes {@code bytes}' remaining bytes (its position is left unchanged). */
    void putBytes(ByteBuffer bytes);
}
