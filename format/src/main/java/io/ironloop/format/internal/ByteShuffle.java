package io.ironloop.format.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte shuffle by element width (as in Blosc and HDF5's shuffle filter): for {@code n} elements of
 * {@code w} bytes, output byte {@code j*n + i} is byte {@code j} of element {@code i}. Bytes of equal
 * significance end up next to each other, so the slowly varying sign/exponent bytes of a smooth field
 * form long runs a compressor sees. Trailing bytes that do not fill an element are copied unchanged.
 */
public final class ByteShuffle {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private ByteShuffle() {
    }

    /** Shuffles {@code src[0, len)} into {@code dst[0, len)}; {@code src} and {@code dst} must differ. */
    public static void shuffle(byte[] src, byte[] dst, int len, int width) {
        int n = len / width;
        if (width == Long.BYTES) {
            for (int i = 0; i < n; i++) {
                long v = (long) LONG_LE.get(src, i << 3);
                for (int j = 0; j < Long.BYTES; j++) {
                    dst[j * n + i] = (byte) (v >>> (j << 3));
                }
            }
        } else if (width == Integer.BYTES) {
            for (int i = 0; i < n; i++) {
                int v = (int) INT_LE.get(src, i << 2);
                dst[i] = (byte) v;
                dst[n + i] = (byte) (v >>> 8);
                dst[2 * n + i] = (byte) (v >>> 16);
                dst[3 * n + i] = (byte) (v >>> 24);
            }
        } else {
            for (int j = 0; j < width; j++) {
                for (int i = 0, s = j, d = j * n; i < n; i++, s += width, d++) {
                    dst[d] = src[s];
                }
            }
        }
        System.arraycopy(src, n * width, dst, n * width, len - n * width);
    }

    /** Inverts {@link #shuffle}: un-shuffles {@code src[0, len)} into {@code dst[0, len)}. */
    public static void unshuffle(byte[] src, byte[] dst, int len, int width) {
        int n = len / width;
        if (width == Long.BYTES) {
            for (int i = 0; i < n; i++) {
                long v = 0;
                for (int j = 0; j < Long.BYTES; j++) {
                    v |= (src[j * n + i] & 0xFFL) << (j << 3);
                }
                LONG_LE.set(dst, i << 3, v);
            }
        } else if (width == Integer.BYTES) {
            for (int i = 0; i < n; i++) {
                int v = (src[i] & 0xFF) | (src[n + i] & 0xFF) << 8 | (src[2 * n + i] & 0xFF) << 16 | (src[3 * n + i] & 0xFF) << 24;
                INT_LE.set(dst, i << 2, v);
            }
        } else {
            for (int j = 0; j < width; j++) {
                for (int i = 0, d = j, s = j * n; i < n; i++, d += width, s++) {
                    dst[d] = src[s];
                }
            }
        }
        System.arraycopy(src, n * width, dst, n * width, len - n * width);
    }
}
