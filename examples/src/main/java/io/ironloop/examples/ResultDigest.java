package io.ironloop.examples;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over an example's final state, printed as the {@code result sha256=<hex>} line.
 *
 * <p>Values are fed in the order of the calls: doubles as their IEEE 754 bit patterns
 * ({@link Double#doubleToRawLongBits}) and longs as themselves, each as 8 little-endian bytes. Two
 * runs print the same line exactly when they fed bit-identical values, which is the correctness
 * oracle of every end-to-end test.
 *
 * <p>Not thread-safe; use one instance per digest.
 */
public final class ResultDigest {

    /** Prefix of the line that carries the digest on standard output. */
    public static final String LINE_PREFIX = "result sha256=";

    private final MessageDigest sha256;
    private final ByteBuffer buffer = ByteBuffer.allocate(8 * 512).order(ByteOrder.LITTLE_ENDIAN);

    /** Starts an empty digest. */
    public ResultDigest() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    /**
     * Adds every element of {@code values}, in index order.
     *
     * @return this digest
     */
    public ResultDigest putDoubles(double[] values) {
        for (double v : values) {
            if (buffer.remaining() < Long.BYTES) {
                flush();
            }
            buffer.putLong(Double.doubleToRawLongBits(v));
        }
        return this;
    }

    /**
     * Adds one long.
     *
     * @return this digest
     */
    public ResultDigest putLong(long value) {
        if (buffer.remaining() < Long.BYTES) {
            flush();
        }
        buffer.putLong(value);
        return this;
    }

    /** Returns the digest as 64 lowercase hexadecimal characters; the digest cannot be used after. */
    public String hex() {
        flush();
        return HexFormat.of().formatHex(sha256.digest());
    }

    /** Returns {@code result sha256=<hex>}: the line an example prints last on standard output. */
    public String resultLine() {
        return LINE_PREFIX + hex();
    }

    private void flush() {
        buffer.flip();
        sha256.update(buffer);
        buffer.clear();
    }
}
