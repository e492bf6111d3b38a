package io.ironloop.core.level;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A systematic maximum-distance-separable erasure code over GF(2^8): k data shards and m parity shards of
 * equal length, any k of the k + m rebuild the others.
 *
 * <ul>
 *   <li>{@link #xor(int)}: m = 1, the parity is the XOR of the data (RAID-5, SCR's XOR scheme);</li>
 *   <li>{@link #cauchy(int, int)}: Reed–Solomon with a Cauchy generator matrix (Blömer, Kalfane, Karp, Karpinski,
 *       Luby, Zuckerman, "An XOR-based erasure-resilient coding scheme", ICSI TR-95-048, 1995): parity row i,
 *       data column j holds 1 / (x_i + y_j) with x_i = i and y_j = m + j, all distinct, so every square
 *       submatrix of the Cauchy matrix is invertible and the code [I; C] is MDS for k + m ≤ 256.</li>
 * </ul>
 *
 * <p>Arithmetic is table-driven: a product c·b is {@code MUL[c][b]}, one load per byte; a coefficient 1 is a
 * plain XOR, eight bytes at a time. Immutable; thread-safe.
 */
public final class ErasureCode {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int k;
    private final int m;
    private final int[][] parity;

    private ErasureCode(int k, int m, int[][] parity) {
        this.k = k;
        this.m = m;
        this.parity = parity;
    }

    /**
     * XOR parity over {@code k} data shards (one loss).
     *
     * @throws IllegalArgumentException if k is not in 1..255
     */
    public static ErasureCode xor(int k) {
        check(k, 1);
        int[][] ones = new int[1][k];
        Arrays.fill(ones[0], 1);
        return new ErasureCode(k, 1, ones);
    }

    /**
     * Reed–Solomon RS(k, m) with a Cauchy matrix: {@code m} parity shards over {@code k} data shards.
     *
     * @throws IllegalArgumentException if k or m is below 1 or k + m exceeds 256
     */
    public static ErasureCode cauchy(int k, int m) {
        check(k, m);
        int[][] c = new int[m][k];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < k; j++) {
                c[i][j] = Gf256.inverse(i ^ (m + j));
            }
        }
        return new ErasureCode(k, m, c);
    }

    private static void check(int k, int m) {
        if (k < 1 || m < 1 || k + m > 256) {
            throw new IllegalArgumentException("an erasure code over GF(2^8) needs k ≥ 1 data and m ≥ 1 parity shards with k + m ≤ 256,"
                    + " not k = " + k + ", m = " + m);
        }
    }

    /** k: the data shards. */
    public int dataShards() {
        return k;
    }

    /** m: the parity shards, which is how many lost shards the code rebuilds. */
    public int parityShards() {
        return m;
    }

    /** The generator's coefficient of data shard {@code column} in parity shard {@code row}. */
    public int coefficient(int row, int column) {
        return parity[row][column];
    }

    /**
     * {@code dst[dstOff, dstOff + len) += c · src[srcOff, srcOff + len)} in GF(2^8): the inner loop of encoding and
     * decoding.
     */
    public static void multiplyAdd(int c, byte[] src, int srcOff, byte[] dst, int dstOff, int len) {
        if (c == 0) {
            return;
        }
        if (c == 1) {
            int i = 0;
            for (; i + Long.BYTES <= len; i += Long.BYTES) {
                long d = (long) LONGS.get(dst, dstOff + i);
                LONGS.set(dst, dstOff + i, d ^ (long) LONGS.get(src, srcOff + i));
            }
            for (; i < len; i++) {
                dst[dstOff + i] ^= src[srcOff + i];
            }
            return;
        }
        byte[] row = Gf256.MUL[c];
        for (int i = 0; i < len; i++) {
            dst[dstOff + i] ^= row[src[srcOff + i] & 0xff];
        }
    }

    /**
     * Encodes bytes {@code [off, off + len)} of the k {@code data} shards into the m {@code parity} shards
     * (overwritten).
     */
    public void encode(byte[][] data, byte[][] parityShards, int off, int len) {
        for (int i = 0; i < m; i++) {
            Arrays.fill(parityShards[i], off, off + len, (byte) 0);
            for (int j = 0; j < k; j++) {
                multiplyAdd(parity[i][j], data[j], off, parityShards[i], off, len);
            }
        }
    }

    /**
     * How to rebuild the data shards from k present shards: for shards numbered 0..k−1 (data) and k..k+m−1
     * (parity), {@code present} names k distinct shards; row j of the result gives the coefficients, over the
     * present shards in the order given, of data shard j.
     *
     * @throws IllegalArgumentException if {@code present} does not name k distinct shards
     */
    public int[][] decodingMatrix(int[] present) {
        if (present.length != k || Arrays.stream(present).distinct().count() != k
                || Arrays.stream(present).anyMatch(s -> s < 0 || s >= k + m)) {
            throw new IllegalArgumentException("decoding needs " + k + " distinct shards of 0.." + (k + m - 1) + ", not "
                    + Arrays.toString(present));
        }
        int[][] a = new int[k][2 * k]; // [rows of the generator for the present shards | I]
        for (int r = 0; r < k; r++) {
            int s = present[r];
            if (s < k) {
                a[r][s] = 1;
            } else {
                System.arraycopy(parity[s - k], 0, a[r], 0, k);
            }
            a[r][k + r] = 1;
        }
        for (int col = 0; col < k; col++) { // Gauss–Jordan elimination; MDS: a pivot always exists
            int pivot = col;
            while (a[pivot][col] == 0) {
                pivot++;
            }
            int[] t = a[pivot];
            a[pivot] = a[col];
            a[col] = t;
            int inv = Gf256.inverse(a[col][col]);
            for (int j = 0; j < 2 * k; j++) {
                a[col][j] = Gf256.mul(a[col][j], inv);
            }
            for (int r = 0; r < k; r++) {
                int f = a[r][col];
                if (r != col && f != 0) {
                    for (int j = 0; j < 2 * k; j++) {
                        a[r][j] ^= Gf256.mul(f, a[col][j]);
                    }
                }
            }
        }
        int[][] d = new int[k][];
        for (int r = 0; r < k; r++) {
            d[r] = Arrays.copyOfRange(a[r], k, 2 * k);
        }
        return d;
    }

    /**
     * Rebuilds the missing data shards of {@code shards} (k data then m parity, each at least {@code off + len}
     * long) from the first k present ones, bytes {@code [off, off + len)}; parity shards are not rebuilt.
     *
     * @return false, changing nothing, when fewer than k shards are present
     */
    public boolean decode(byte[][] shards, boolean[] present, int off, int len) {
        int[] use = new int[k];
        int n = 0;
        for (int s = 0; s < k + m && n < k; s++) {
            if (present[s]) {
                use[n++] = s;
            }
        }
        if (n < k) {
            return false;
        }
        int[][] d = decodingMatrix(use);
        for (int j = 0; j < k; j++) {
            if (present[j]) {
                continue;
            }
            Arrays.fill(shards[j], off, off + len, (byte) 0);
            for (int r = 0; r < k; r++) {
                multiplyAdd(d[j][r], shards[use[r]], off, shards[j], off, len);
            }
        }
        return true;
    }
}
