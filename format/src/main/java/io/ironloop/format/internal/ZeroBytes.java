package io.ironloop.format.internal;

import java.nio.ByteBuffer;

/**
 * All-zero detection and zero filling with the JDK's vectorised buffer primitives, against one shared
 * read-only block of zeros.
 */
public final class ZeroBytes {
    private static final int BLOCK = 64 << 10;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(BLOCK).asReadOnlyBuffer();

    private ZeroBytes() {
    }

    /** Whether every remaining byte of {@code b} is zero; stops at the first non-zero block. */
    public static boolean isZero(ByteBuffer b) {
        int pos = b.position();
        int end = b.limit();
        while (pos < end) {
            int n = Math.min(BLOCK, end - pos);
            if (b.slice(pos, n).mismatch(ZEROS.slice(0, n)) >= 0) {
                return false;
            }
            pos += n;
        }
        return true;
    }

    /** Sets {@code length} bytes of {@code target} from absolute index {@code index} to zero. */
    public static void fill(ByteBuffer target, int index, int length) {
        int pos = index;
        int end = index + length;
        while (pos < end) {
            int n = Math.min(BLOCK, end - pos);
            target.put(pos, ZEROS, 0, n);
            pos += n;
        }
    }
}
