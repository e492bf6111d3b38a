package io.ironloop.core.level;

/**
 * Arithmetic in GF(2^8) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 ({@code 0x11d}, generator 2),
 * the field of most Reed–Solomon storage codes (Jerasure, ISA-L, Backblaze). Addition is XOR; multiplication
 * goes through log/exp tables, and {@link #MUL} holds every product (64 KiB) for the table-driven inner loops.
 * Immutable tables; thread-safe.
 */
final class Gf256 {
    /** The reduction polynomial, with its x^8 bit. */
    static final int POLYNOMIAL = 0x11d;
    private static final int[] LOG = new int[256];
    private static final int[] EXP = new int[510];
    /** {@code MUL[a][b]} is a·b. */
    static final byte[][] MUL = new byte[256][256];

    static {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            EXP[i] = x;
            EXP[i + 255] = x;
            LOG[x] = i;
            x <<= 1;
            if ((x & 0x100) != 0) {
                x ^= POLYNOMIAL;
            }
        }
        for (int a = 1; a < 256; a++) {
            for (int b = 1; b < 256; b++) {
                MUL[a][b] = (byte) EXP[LOG[a] + LOG[b]];
            }
        }
    }

    private Gf256() {
    }

    /** a·b for a, b in 0..255. */
    static int mul(int a, int b) {
        return MUL[a][b] & 0xff;
    }

    /**
     * The inverse of {@code a}.
     *
     * @throws ArithmeticException if {@code a} is 0
     */
    static int inverse(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse in GF(2^8)");
        }
        return EXP[255 - LOG[a]];
    }
}
