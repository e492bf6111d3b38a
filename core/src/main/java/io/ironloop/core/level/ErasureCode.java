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
 *       submatrix of the Cauchy matrix is invertible and the code [I; C] is MDS for k + m ≤ 256. Rows and
 *       columns are then scaled as in Plank and Xu, "Optimizing Cauchy Reed-Solomon codes for fault-tolerant
 *       network storage applications" (NCA 2006): the first parity becomes a plain XOR and the others use the
 *       cheapest coefficients the scaling allows.</li>
 * </ul>
 *
 * <p><b>Symbols.</b> A shard is cut into blocks of {@value #BLOCK} bytes from the start of the region coded; a
 * block holds 64 symbols as bit planes (bit t of its little-endian word a is bit a of symbol t), so multiplying
 * a block by a coefficient c is a few XORs of whole words: c·x is the sum of x·2^j over the bits j of c, and
 * x·2 moves the planes up one and adds plane 7 into planes 0, 2, 3 and 4 (the bits of 0x11d) — about 60 XORs per
 * 64 bytes instead of 64 table lookups (the bit-plane form of Blömer et al.'s XOR-based coding). A region's tail shorter than a
 * block holds one symbol per byte, multiplied through a table of every product. A coefficient 1 is a plain XOR.
 * Any split of a region works as long as encoding and decoding split it alike (the erasure level codes whole
 * multiples of a block). Immutable; thread-safe.
 */
public final class ErasureCode {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Bytes of a block whose eight little-endian words are the bit planes of 64 symbols. */
    public static final int BLOCK = 64;

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
        int[][] c = cauchyMatrix(k, m);
        // Plank and Xu's "good" Cauchy matrix: scaling a column or a row by a non-zero constant keeps every square
        // submatrix invertible; divide each column by its first entry (the first parity is a plain XOR), then scale
        // each further row by the constant that makes its coefficients cheapest to multiply by
        for (int j = 0; j < k; j++) {
            int inv = Gf256.inverse(c[0][j]);
            for (int i = 0; i < m; i++) {
                c[i][j] = Gf256.mul(c[i][j], inv);
            }
        }
        for (int i = 1; i < m; i++) {
            int best = 1;
            int bestCost = Integer.MAX_VALUE;
            for (int scale = 1; scale < 256; scale++) {
                int cost = 0;
                for (int j = 0; j < k; j++) {
                    cost += cost(Gf256.mul(scale, c[i][j]));
                }
                if (cost < bestCost) {
                    best = scale;
                    bestCost = cost;
                }
            }
            for (int j = 0; j < k; j++) {
                c[i][j] = Gf256.mul(best, c[i][j]);
            }
        }
        return new ErasureCode(k, m, c);
    }

    /** Blömer et al.'s Cauchy matrix: row i, column j holds 1 / (x_i + y_j) with x_i = i, y_j = m + j. */
    static int[][] cauchyMatrix(int k, int m) {
        int[][] c = new int[m][k];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < k; j++) {
                c[i][j] = Gf256.inverse(i ^ (m + j));
            }
        }
        return c;
    }

    /** Word operations of {@link #multiplyAdd} per block for coefficient c: a doubling per bit below its top, an addition per set bit. */
    static int cost(int c) {
        return c == 1 ? 1 : (31 - Integer.numberOfLeadingZeros(c)) + Integer.bitCount(c);
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
            if (srcOff == dstOff) { // every caller's case: one index for both arrays, a loop the JIT vectorizes (about 10×)
                for (int i = srcOff; i < srcOff + len; i++) {
                    dst[i] ^= src[i];
                }
                return;
            }
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
        int i = 0;
        for (; i + BLOCK <= len; i += BLOCK) { // a block's eight words are the bit planes of its 64 symbols
            int s = srcOff + i;
            long x0 = (long) LONGS.get(src, s);
            long x1 = (long) LONGS.get(src, s + 8);
            long x2 = (long) LONGS.get(src, s + 16);
            long x3 = (long) LONGS.get(src, s + 24);
            long x4 = (long) LONGS.get(src, s + 32);
            long x5 = (long) LONGS.get(src, s + 40);
            long x6 = (long) LONGS.get(src, s + 48);
            long x7 = (long) LONGS.get(src, s + 56);
            long d0 = 0;
            long d1 = 0;
            long d2 = 0;
            long d3 = 0;
            long d4 = 0;
            long d5 = 0;
            long d6 = 0;
            long d7 = 0;
            for (int bits = c; ; ) { // c·x = the sum of x·2^j over the bits j of c
                if ((bits & 1) != 0) {
                    d0 ^= x0;
                    d1 ^= x1;
                    d2 ^= x2;
                    d3 ^= x3;
                    d4 ^= x4;
                    d5 ^= x5;
                    d6 ^= x6;
                    d7 ^= x7;
                }
                bits >>>= 1;
                if (bits == 0) {
                    break;
                }
                long t = x7; // x·2: shift the planes up, and reduce plane 7 by 0x11d into planes 0, 2, 3, 4
                x7 = x6;
                x6 = x5;
                x5 = x4;
                x4 = x3 ^ t;
                x3 = x2 ^ t;
                x2 = x1 ^ t;
                x1 = x0;
                x0 = t;
            }
            int d = dstOff + i;
            LONGS.set(dst, d, (long) LONGS.get(dst, d) ^ d0);
            LONGS.set(dst, d + 8, (long) LONGS.get(dst, d + 8) ^ d1);
            LONGS.set(dst, d + 16, (long) LONGS.get(dst, d + 16) ^ d2);
            LONGS.set(dst, d + 24, (long) LONGS.get(dst, d + 24) ^ d3);
            LONGS.set(dst, d + 32, (long) LONGS.get(dst, d + 32) ^ d4);
            LONGS.set(dst, d + 40, (long) LONGS.get(dst, d + 40) ^ d5);
            LONGS.set(dst, d + 48, (long) LONGS.get(dst, d + 48) ^ d6);
            LONGS.set(dst, d + 56, (long) LONGS.get(dst, d + 56) ^ d7);
        }
        byte[] row = Gf256.MUL[c];
        for (; i < len; i++) { // the tail, shorter than a block: byte symbols
            dst[dstOff + i] ^= row[src[srcOff + i] & 0xff];
        }
    }

    /**
     * Encodes bytes {@code [off, off + len)} of the k {@code data} shards into the m {@code parity} shards
     * (overwritten): parity shard i is the sum over j of {@code coefficient(i, j) · data[j]}, computed row by row with
     * {@link #multiplyAdd}, whose coefficient-1 loop the JIT vectorizes and whose other coefficients keep a block's eight
     * planes in registers — about twice the speed of forming each data block's multiples once for all rows in memory
     * (RS(2, 2), RS(4, 2), RS(8, 4) in CPU time, `ErasureCpuBench`).
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
