package io.ironloop.device.internal;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.format.Scope;
import java.util.Arrays;
import org.jocl.Pointer;

/**
 * What the device layer needs to know about one primitive array type: size, allocation, copies, the poison
 * pattern of checked mode, registration with the engine and the OpenCL host pointer. One instance per type.
 *
 * @param <A> the array type, e.g. {@code double[]}
 */
public abstract sealed class Elements<A> {
    public static final Elements<double[]> DOUBLE = new Doubles();
    public static final Elements<float[]> FLOAT = new Floats();
    public static final Elements<int[]> INT = new Ints();
    public static final Elements<long[]> LONG = new Longs();

    private final String typeName;
    private final int bytes;

    Elements(String typeName, int bytes) {
        this.typeName = typeName;
        this.bytes = bytes;
    }

    /** The Java name of the element type, e.g. {@code double}. */
    public final String typeName() {
        return typeName;
    }

    /** Bytes per element. */
    public final int bytes() {
        return bytes;
    }

    public abstract A allocate(int length);

    public abstract int length(A array);

    public final void copy(A from, int fromOffset, A to, int toOffset, int length) {
        System.arraycopy(from, fromOffset, to, toOffset, length);
    }

    /** Fills {@code array} with this type's poison pattern (checked mode's "not yet written"). */
    public abstract void poison(A array);

    /** The first element still holding the poison pattern, or -1. */
    public abstract int firstPoisoned(A array);

    /** Whether the two arrays hold the same bits. */
    public abstract boolean sameContents(A a, A b);

    /** Registers {@code array} with the engine as a typed entry. */
    public abstract void protect(CheckpointEngine engine, String name, Scope scope, A array);

    /** A JOCL pointer to {@code array}'s element {@code offset}. */
    public abstract Pointer pointer(A array, int offset);

    private static final class Doubles extends Elements<double[]> {
        private static final long POISON = 0x7FF4_DEAD_BEEF_0001L;

        Doubles() {
            super("double", Double.BYTES);
        }

        @Override
        public double[] allocate(int length) {
            return new double[length];
        }

        @Override
        public int length(double[] array) {
            return array.length;
        }

        @Override
        public void poison(double[] array) {
            Arrays.fill(array, Double.longBitsToDouble(POISON));
        }

        @Override
        public int firstPoisoned(double[] array) {
            for (int i = 0; i < array.length; i++) {
                if (Double.doubleToRawLongBits(array[i]) == POISON) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public boolean sameContents(double[] a, double[] b) {
            return Arrays.equals(a, b);
        }

        @Override
        public void protect(CheckpointEngine engine, String name, Scope scope, double[] array) {
            engine.protect(name, scope, array);
        }

        @Override
        public Pointer pointer(double[] array, int offset) {
            return Pointer.to(array).withByteOffset((long) offset * Double.BYTES);
        }
    }

    private static final class Floats extends Elements<float[]> {
        private static final int POISON = 0x7FA0_DEAD;

        Floats() {
            super("float", Float.BYTES);
        }

        @Override
        public float[] allocate(int length) {
            return new float[length];
        }

        @Override
        public int length(float[] array) {
            return array.length;
        }

        @Override
        public void poison(float[] array) {
            Arrays.fill(array, Float.intBitsToFloat(POISON));
        }

        @Override
        public int firstPoisoned(float[] array) {
            for (int i = 0; i < array.length; i++) {
                if (Float.floatToRawIntBits(array[i]) == POISON) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public boolean sameContents(float[] a, float[] b) {
            return Arrays.equals(a, b);
        }

        @Override
        public void protect(CheckpointEngine engine, String name, Scope scope, float[] array) {
            engine.protect(name, scope, array);
        }

        @Override
        public Pointer pointer(float[] array, int offset) {
            return Pointer.to(array).withByteOffset((long) offset * Float.BYTES);
        }
    }

    private static final class Ints extends Elements<int[]> {
        private static final int POISON = 0xDEAD_BEEF;

        Ints() {
            super("int", Integer.BYTES);
        }

        @Override
        public int[] allocate(int length) {
            return new int[length];
        }

        @Override
        public int length(int[] array) {
            return array.length;
        }

        @Override
        public void poison(int[] array) {
            Arrays.fill(array, POISON);
        }

        @Override
        public int firstPoisoned(int[] array) {
            for (int i = 0; i < array.length; i++) {
                if (array[i] == POISON) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public boolean sameContents(int[] a, int[] b) {
            return Arrays.equals(a, b);
        }

        @Override
        public void protect(CheckpointEngine engine, String name, Scope scope, int[] array) {
            engine.protect(name, scope, array);
        }

        @Override
        public Pointer pointer(int[] array, int offset) {
            return Pointer.to(array).withByteOffset((long) offset * Integer.BYTES);
        }
    }

    private static final class Longs extends Elements<long[]> {
        private static final long POISON = 0xDEAD_BEEF_DEAD_BEEFL;

        Longs() {
            super("long", Long.BYTES);
        }

        @Override
        public long[] allocate(int length) {
            return new long[length];
        }

        @Override
        public int length(long[] array) {
            return array.length;
        }

        @Override
        public void poison(long[] array) {
            Arrays.fill(array, POISON);
        }

        @Override
        public int firstPoisoned(long[] array) {
            for (int i = 0; i < array.length; i++) {
                if (array[i] == POISON) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public boolean sameContents(long[] a, long[] b) {
            return Arrays.equals(a, b);
        }

        @Override
        public void protect(CheckpointEngine engine, String name, Scope scope, long[] array) {
            engine.protect(name, scope, array);
        }

        @Override
        public Pointer pointer(long[] array, int offset) {
            return Pointer.to(array).withByteOffset((long) offset * Long.BYTES);
        }
    }
}
