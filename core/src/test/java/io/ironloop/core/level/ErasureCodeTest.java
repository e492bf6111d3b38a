package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ErasureCodeTest {

    /** Shift-and-add multiplication reduced by 0x11d: the textbook definition, independent of the tables. */
    private static int slowMul(int a, int b) {
        int p = 0;
        for (int i = 0; i < 8; i++) {
            if ((b & (1 << i)) != 0) {
                p ^= a << i;
            }
        }
        for (int bit = 14; bit >= 8; bit--) {
            if ((p & (1 << bit)) != 0) {
                p ^= Gf256.POLYNOMIAL << (bit - 8);
            }
        }
        return p;
    }

    @Test
    void gf256_tablesMatchTheDefinition_forEveryPair() {
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                assertThat(Gf256.mul(a, b)).as("%02x·%02x", a, b).isEqualTo(slowMul(a, b));
            }
            if (a > 0) {
                assertThat(Gf256.mul(a, Gf256.inverse(a))).isEqualTo(1);
            }
        }
        // hand-computed: 2·0x80 = x^8 = x^4 + x^3 + x^2 + 1; 2·0x8e = 0x11c + 0x11d = 1; 3·0xf4 = 0xf4 + 0x1e8 + 0x11d = 1
        assertThat(Gf256.mul(2, 0x80)).isEqualTo(0x1d);
        assertThat(Gf256.inverse(2)).isEqualTo(0x8e);
        assertThat(Gf256.inverse(3)).isEqualTo(0xf4);
    }

    @Test
    void cauchyMatrix_2_2_matchesTheHandComputedOne() {
        // x = {0, 1}, y = {2, 3}: 1/(0+2), 1/(0+3); 1/(1+2), 1/(1+3)
        assertThat(ErasureCode.cauchyMatrix(2, 2)).isEqualTo(new int[][] {{0x8e, 0xf4}, {0xf4, 0x8e}});
    }

    @Test
    void cauchy_2_2_isTheScaledMatrix_firstRowXor_secondRowCheapest() {
        ErasureCode rs = ErasureCode.cauchy(2, 2);
        // columns divided by row 0 (1/0x8e = 2, 1/0xf4 = 3): row 1 = {0xf4·2, 0x8e·3} = {0xf5, 0x8f}
        assertThat(new int[] {rs.coefficient(0, 0), rs.coefficient(0, 1)}).containsExactly(1, 1);
        int s = Gf256.mul(rs.coefficient(1, 0), Gf256.inverse(0xf5));
        assertThat(rs.coefficient(1, 1)).isEqualTo(Gf256.mul(s, 0x8f));
        int cheapest = Integer.MAX_VALUE;
        for (int t = 1; t < 256; t++) {
            cheapest = Math.min(cheapest, ErasureCode.cost(Gf256.mul(t, 0xf5)) + ErasureCode.cost(Gf256.mul(t, 0x8f)));
        }
        assertThat(ErasureCode.cost(rs.coefficient(1, 0)) + ErasureCode.cost(rs.coefficient(1, 1))).isEqualTo(cheapest);
        // on byte symbols (a region shorter than a block): parity 0 = d0 + d1, parity 1 = c10·d0 + c11·d1
        byte[][] parity = new byte[2][2];
        rs.encode(new byte[][] {{0x02, 0x01}, {0x00, 0x01}}, parity, 0, 2);
        assertThat(parity[0]).containsExactly(0x02, 0x00);
        assertThat(parity[1]).containsExactly(Gf256.mul(rs.coefficient(1, 0), 2), rs.coefficient(1, 0) ^ rs.coefficient(1, 1));
    }

    @Test
    void multiplyAdd_aBlockIsSixtyFourBitPlaneSymbols_eachMultipliedByTheCoefficient() {
        Random random = new Random(7);
        int[] x = new int[64];
        for (int t = 0; t < 64; t++) {
            x[t] = random.nextInt(256);
        }
        byte[] block = planes(x);
        for (int c = 0; c < 256; c++) {
            byte[] product = new byte[64];
            ErasureCode.multiplyAdd(c, block, 0, product, 0, 64);
            for (int t = 0; t < 64; t++) {
                assertThat(symbol(product, t)).as("%02x·%02x", c, x[t]).isEqualTo(Gf256.mul(c, x[t]));
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 1000", "13, 13, 999", "13, 5, 999", "0, 7, 8", "3, 3, 0"})
    void multiplyAdd_coefficientOne_isAByteWiseXor_atEqualAndDifferentOffsets(int srcOff, int dstOff, int len) {
        Random random = new Random(srcOff * 31L + dstOff + len);
        byte[] src = new byte[1024];
        byte[] dst = new byte[1024];
        random.nextBytes(src);
        random.nextBytes(dst);
        byte[] expected = dst.clone();
        for (int i = 0; i < len; i++) {
            expected[dstOff + i] ^= src[srcOff + i];
        }

        ErasureCode.multiplyAdd(1, src, srcOff, dst, dstOff, len);

        assertThat(dst).isEqualTo(expected); // bytes outside [dstOff, dstOff + len) untouched too
    }

    /** 64 symbols as eight little-endian words: bit t of word a is bit a of symbol t. */
    private static byte[] planes(int[] x) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int a = 0; a < 8; a++) {
            long w = 0;
            for (int t = 0; t < 64; t++) {
                w |= (long) (x[t] >>> a & 1) << t;
            }
            b.putLong(w);
        }
        return b.array();
    }

    private static int symbol(byte[] block, int t) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(block).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int v = 0;
        for (int a = 0; a < 8; a++) {
            v |= (int) (b.getLong(8 * a) >>> t & 1) << a;
        }
        return v;
    }

    @Test
    void xor_parityIsTheXorOfTheData() {
        ErasureCode xor = ErasureCode.xor(3);
        byte[][] parity = new byte[1][11];
        byte[][] data = {"abcdefghijk".getBytes(), "ABCDEFGHIJK".getBytes(), "01234567890".getBytes()};
        xor.encode(data, parity, 0, 11);
        for (int i = 0; i < 11; i++) {
            assertThat(parity[0][i]).isEqualTo((byte) (data[0][i] ^ data[1][i] ^ data[2][i]));
        }
    }

    @ParameterizedTest
    @CsvSource({"xor,4,1", "rs,4,2", "rs,8,3", "rs,6,3", "rs,1,2", "rs,20,4"})
    void encode_anyRegion_equalsTheSumOfEachCoefficientTimesItsShard(String kind, int k, int m) {
        ErasureCode code = kind.equals("xor") ? ErasureCode.xor(k) : ErasureCode.cauchy(k, m);
        Random random = new Random(k * 131L + m);
        int size = 1000;
        byte[][] data = new byte[k][size];
        for (byte[] d : data) {
            random.nextBytes(d);
        }
        for (int[] region : new int[][] {{0, 1000}, {0, 64}, {7, 64 * 5 + 9}, {3, 63}, {900, 100}, {0, 0}}) {
            int off = region[0];
            int len = region[1];
            byte[][] parity = new byte[m][size];
            byte[][] expected = new byte[m][size];
            for (int i = 0; i < m; i++) {
                random.nextBytes(parity[i]); // encode overwrites the region, leaves the rest
                System.arraycopy(parity[i], 0, expected[i], 0, size);
                java.util.Arrays.fill(expected[i], off, off + len, (byte) 0);
                for (int j = 0; j < k; j++) {
                    ErasureCode.multiplyAdd(code.coefficient(i, j), data[j], off, expected[i], off, len);
                }
            }
            code.encode(data, parity, off, len);
            assertThat(parity).as("region at %d, %d bytes", off, len).isDeepEqualTo(expected);
        }
    }

    @ParameterizedTest
    @CsvSource({"xor,4,1", "rs,4,2", "rs,3,3", "rs,6,3", "rs,1,2"})
    void decode_everyPatternOfUpToMLosses_rebuildsTheDataExactly(String kind, int k, int m) {
        ErasureCode code = kind.equals("xor") ? ErasureCode.xor(k) : ErasureCode.cauchy(k, m);
        int len = 1003; // not a multiple of 8: the XOR path's tail too
        Random random = new Random(k * 31L + m);
        byte[][] data = new byte[k][len];
        for (byte[] d : data) {
            random.nextBytes(d);
        }
        byte[][] parity = new byte[m][len];
        code.encode(data, parity, 0, len);
        int n = k + m;
        for (int lost = 1; lost < 1 << n; lost++) {
            byte[][] shards = new byte[n][];
            boolean[] present = new boolean[n];
            for (int s = 0; s < n; s++) {
                present[s] = (lost & (1 << s)) == 0;
                shards[s] = present[s] ? (s < k ? data[s] : parity[s - k]).clone() : new byte[len];
            }
            boolean decoded = code.decode(shards, present, 0, len);
            if (Integer.bitCount(lost) > m) {
                assertThat(decoded).as("lost %s", Integer.toBinaryString(lost)).isFalse();
                continue;
            }
            assertThat(decoded).isTrue();
            for (int j = 0; j < k; j++) {
                assertThat(shards[j]).as("data shard %d after losing %s", j, Integer.toBinaryString(lost)).isEqualTo(data[j]);
            }
        }
    }
}
