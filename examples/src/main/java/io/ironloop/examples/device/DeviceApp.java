package io.ironloop.examples.device;

import io.ironloop.device.DeviceSession;
import io.ironloop.examples.ResultDigest;

/**
 * One heterogeneous example as {@link DeviceRank} drives it: setup code (allocate and register the arrays; run
 * again on every restart), the distribution over devices (after the restore), one iteration of kernel launches,
 * and the digest of the result.
 */
interface DeviceApp {
    /** The problem in words, e.g. "512 x 512 doubles, 64 panels". */
    String describe();

    /** The sizes that make a checkpoint of this app restorable (the engine's settings entry). */
    int[] settings();

    long iterations();

    /** Iterations between two checkpoints. */
    int checkpointEvery();

    /** Allocates the host images and registers what is live at a checkpoint. Runs before the restore. */
    void setup(DeviceSession session);

    /** Splits work over {@code session.virtualDevices()} devices. Runs after the restore. */
    void distribute(DeviceSession session);

    /** Launches iteration {@code iteration}'s kernels (and host work). */
    void iterate(DeviceSession session, long iteration);

    /** Feeds the final state to {@code digest} (through host access, which brings it home). */
    void digest(ResultDigest digest);

    static void putInts(ResultDigest digest, int[] values) {
        for (int v : values) {
            digest.putLong(v);
        }
    }

    static void putFloats(ResultDigest digest, float[] values) {
        for (float v : values) {
            digest.putLong(Float.floatToRawIntBits(v));
        }
    }
}
