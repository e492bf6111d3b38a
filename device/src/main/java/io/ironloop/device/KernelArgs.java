package io.ironloop.device;

/**
 * A launch's arguments as a {@link JavaKernel} sees them, by position: arrays as the device's own buffers
 * (never the host image), scalars by value. Asking for an argument as another type than it was passed
 * throws {@link ClassCastException}.
 */
public interface KernelArgs {
    double[] doubles(int index);

    float[] floats(int index);

    int[] ints(int index);

    long[] longs(int index);

    int intValue(int index);

    long longValue(int index);

    float floatValue(int index);

    double doubleValue(int index);

    /** The number of work items of the launch. */
    int globalSize();
}
