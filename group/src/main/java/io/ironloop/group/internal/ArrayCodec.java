package io.ironloop.group.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian encoding of primitive arrays for the wire. */
public final class ArrayCodec {
    private ArrayCodec() {
    }

    public static byte[] encode(double[] a, int from, int to) {
        ByteBuffer b = ByteBuffer.allocate((to - from) * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(a, from, to - from);
        return b.array();
    }

    public static byte[] encode(long[] a, int from, int to) {
        ByteBuffer b = ByteBuffer.allocate((to - from) * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(a, from, to - from);
        return b.array();
    }

    public static byte[] encode(int[] a, int from, int to) {
        ByteBuffer b = ByteBuffer.allocate((to - from) * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(a, from, to - from);
        return b.array();
    }

    public static double[] decodeDoubles(byte[] bytes, int offset) {
        requireMultiple(bytes.length - offset, Double.BYTES);
        double[] out = new double[(bytes.length - offset) / Double.BYTES];
        ByteBuffer.wrap(bytes, offset, bytes.length - offset).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    public static long[] decodeLongs(byte[] bytes, int offset) {
        requireMultiple(bytes.length - offset, Long.BYTES);
        long[] out = new long[(bytes.length - offset) / Long.BYTES];
        ByteBuffer.wrap(bytes, offset, bytes.length - offset).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        return out;
    }

    public static int[] decodeInts(byte[] bytes, int offset) {
        requireMultiple(bytes.length - offset, Integer.BYTES);
        int[] out = new int[(bytes.length - offset) / Integer.BYTES];
        ByteBuffer.wrap(bytes, offset, bytes.length - offset).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    private static void requireMultiple(int length, int unit) {
        if (length % unit != 0) {
            throw new IllegalArgumentException("payload of " + length + " bytes is not a whole number of " + unit + "-byte elements");
        }
    }
}
