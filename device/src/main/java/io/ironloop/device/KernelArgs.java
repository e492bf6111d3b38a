package io.ironloop.device;

/**
 * A launch's arguments as a {@link JavaKernel} sees them, by position: arrays as the device's own buffers
 * (never the host image), scalars by value. Asking for an argument as another type than it was passed
 * throws {@link ClassCastException}.
 */
public interface KernelArgs {
    /** Argument {@code index}, a {@code double} array: this device's buffer of it. */
    double[] doubles(int index);

    /** Argument {@code index}, a {@code float} array: this device's buffer of it. */
    float[] floats(int index);

    /** Argument {@code index}, an {@code int} array: this device's buffer of it. */
    int[] ints(int index);

    /** Argument {@code index}, a {@code long} array: this device's buffer of it. */
    long[] longs(int index);

    /** Argument {@code index}, an {@code int} scalar ({@link Arg#of(int)}). */
    int intValue(int index);

    /** Argument {@code index}, a {@code long} scalar ({@link Arg#of(long)}). */
    long longValue(int index);

    /** Argument {@code index}, a {@code float} scalar ({@link Arg#of(float)}). */
    float floatValue(int index);

    /** Argument {@code index}, a {@code double} scalar ({@link Arg#of(double)}). */
    double doubleValue(int index);

    /** The number of work items of the launch. */
    int globalSize();
}
