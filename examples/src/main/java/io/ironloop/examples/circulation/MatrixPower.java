package io.ironloop.examples.circulation;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The problem both versions solve: {@code Y = A^rounds · X} for a row-stochastic {@code n × n} matrix {@code A} and
 * {@code n} column vectors {@code X}, by data circulation. Part {@code p} keeps the rows {@code [p·m, (p+1)·m)} of
 * {@code A} ({@code m = n / parts}, rebuilt from the seed: never checkpointed); blocks of {@code m} columns of
 * {@code X} travel round the parts, one part further each step, and part {@code p} computes its rows of {@code A·x}
 * for each column {@code x} it holds. After {@code parts} steps every column met every part and the new column
 * replaces the old one: a round. Every element is one dot product in index order, so the result is the same bits
 * whoever computes it.
 *
 * @param n the matrix order, a multiple of {@code parts}
 * @param parts the number of parts (and of steps per round)
 * @param rounds the number of products
 * @param seed the seed of {@code A} and {@code X}
 */
public record MatrixPower(int n, int parts, int rounds, long seed) {
    /** Checks the fields. */
    public MatrixPower {
        if (parts < 1 || n < parts || n % parts != 0 || rounds < 1) {
            throw new IllegalArgumentException("a matrix power needs n a multiple of parts >= 1 and rounds >= 1, not n " + n + ", parts "
                    + parts + ", rounds " + rounds);
        }
    }

    /** The preset {@code test} (64, 4 rounds) or {@code demo} (384, 24 rounds) on 8 parts; {@code steps > 0} sets rounds·8. */
    public static MatrixPower preset(String size, long steps) {
        MatrixPower p = switch (size) {
            case "test" -> new MatrixPower(64, 8, 4, 42);
            case "demo" -> new MatrixPower(384, 8, 24, 42);
            default -> throw new IllegalArgumentException("size must be test or demo, not '" + size + "'");
        };
        if (steps > 0 && steps % p.parts != 0) {
            throw new IllegalArgumentException("--steps must be a multiple of the " + p.parts + " parts (whole rounds), not " + steps);
        }
        return steps > 0 ? new MatrixPower(p.n, p.parts, (int) (steps / p.parts), p.seed) : p;
    }

    /** Rows of {@code A} per part, columns of {@code X} per travelling block. */
    public int block() {
        return n / parts;
    }

    /** The number of steps: {@code parts} per round. */
    public long steps() {
        return (long) rounds * parts;
    }

    /** Whether {@code step} ends a round (its new columns are complete). */
    public boolean endsRound(long step) {
        return step % parts == parts - 1;
    }

    /** The block of columns part {@code part} holds at {@code step}: block {@code b} starts at part {@code b}. */
    public int travellerAt(int part, long step) {
        return Math.floorMod(part - (int) (step % parts), parts);
    }

    /** The rows of {@code A} part {@code part} keeps, row-major ({@code m × n}). */
    public double[] rowsOf(int part) {
        int m = block();
        double[] a = new double[m * n];
        for (int r = 0; r < m; r++) {
            double sum = 0;
            for (int j = 0; j < n; j++) {
                a[r * n + j] = uniform(part * m + r, j) + 1e-3;
                sum += a[r * n + j];
            }
            for (int j = 0; j < n; j++) {
                a[r * n + j] /= sum;
            }
        }
        return a;
    }

    /** Element {@code i} of column {@code c} of {@code X}. */
    public double initial(int i, int c) {
        return uniform(n + c, i);
    }

    /**
     * For a column whose old values are {@code x[off … off+n)}, writes this part's rows of {@code A·x} to
     * {@code out[outOff + part·m …]}: the numerics both versions share.
     */
    public void multiply(double[] a, int part, double[] x, int off, double[] out, int outOff) {
        int m = block();
        for (int r = 0; r < m; r++) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += a[r * n + j] * x[off + j];
            }
            out[outOff + part * m + r] = s;
        }
    }

    /** The settings that determine the result. */
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("n", Integer.toString(n));
        s.put("parts", Integer.toString(parts));
        s.put("rounds", Integer.toString(rounds));
        s.put("seed", Long.toString(seed));
        return s;
    }

    /** The problem in words. */
    public String describe() {
        return String.format(Locale.ROOT, "A^%d X, n = %d, %d parts, %d steps", rounds, n, parts, steps());
    }

    /** A uniform double in [0, 1) from the seed and two indices (SplitMix64). */
    private double uniform(long i, long j) {
        long z = seed + 0x9E3779B97F4A7C15L * (i * 0x100000001B3L + j + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }
}
