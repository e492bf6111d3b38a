package io.ironloop.core;

import java.nio.ByteBuffer;

/**
 * Where a {@link Snapshotable} reads its state back, in the order it was written. Reading past the end
 * throws {@link io.ironloop.format.CorruptCheckpointException}-like {@link IllegalStateException}.
 */
public interface StateSource {
    long getLong();

    double getDouble();

    int getInt();

    /** Fills {@code into} completely. */
    void getLongs(long[] into);

    void getDoubles(double[] into);

    void getInts(int[] into);

    /** Fills {@code into}'s remaining bytes. */
    void getBytes(ByteBuffer into);

    /** Bytes not yet read. */
    long remaining();
}
