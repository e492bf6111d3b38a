package io.ironloop.device;

import java.util.Objects;

/**
 * One argument of a kernel launch: an array with its {@link Intent}, or a scalar passed by value.
 * Arguments are matched to the kernel's parameters by position.
 */
public sealed interface Arg {
    /** An array the kernel only reads. */
    static Arg read(DeviceArray<?> array) {
        return new ArrayArg(array, Intent.READ);
    }

    /** An array the kernel overwrites completely without reading it. */
    static Arg write(DeviceArray<?> array) {
        return new ArrayArg(array, Intent.WRITE);
    }

    /** An array the kernel reads and writes. */
    static Arg readWrite(DeviceArray<?> array) {
        return new ArrayArg(array, Intent.READ_WRITE);
    }

    /** An {@code int} passed by value. */
    static Arg of(int value) {
        return new IntArg(value);
    }

    /** A {@code long} passed by value. */
    static Arg of(long value) {
        return new LongArg(value);
    }

    /** A {@code float} passed by value. */
    static Arg of(float value) {
        return new FloatArg(value);
    }

    /** A {@code double} passed by value. */
    static Arg of(double value) {
        return new DoubleArg(value);
    }

    /** An array argument and what the kernel does with it. */
    record ArrayArg(DeviceArray<?> array, Intent intent) implements Arg {
        public ArrayArg {
            Objects.requireNonNull(array, "array");
            Objects.requireNonNull(intent, "intent");
        }
    }

    /** An {@code int} scalar. */
    record IntArg(int value) implements Arg {
    }

    /** A {@code long} scalar. */
    record LongArg(long value) implements Arg {
    }

    /** A {@code float} scalar. */
    record FloatArg(float value) implements Arg {
    }

    /** A {@code double} scalar. */
    record DoubleArg(double value) implements Arg {
    }
}
