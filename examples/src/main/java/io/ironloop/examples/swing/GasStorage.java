package io.ironloop.examples.swing;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A gas storage valued by dynamic programming over price scenarios (least-squares Monte Carlo), the problem of the
 * paper's Swing application. Prices: {@code S(t) = F(t)·exp(X(t) − Var X(t)/2)}, a seasonal forward curve {@code F}
 * (dear in winter) and a one-factor Gaussian mean-reverting factor {@code X(t+1) = a·X(t) + b·ε}, {@code X(0) = 0},
 * {@code paths} seeded scenarios. The storage holds {@code 0 … levels−1} units, starts and must end at {@link
 * #start()}; at step {@code t} it may inject up to {@link #inject(int)} units (more in summer) or withdraw up to
 * {@link #withdraw(int)} (more in winter), paying the price plus a cost per unit (or earning the price minus it).
 *
 * <p>Backward induction: {@code V(T, ·) = 0}; for {@code t = T−1 … 0}, for each reachable level {@code s} and path
 * {@code j}, the decision maximises the cash flow plus the discounted continuation value, estimated by regressing
 * {@code V(t+1, s', ·)} on {@code 1, z, z²} ({@code z} the standardised factor at {@code t}); {@code V(t, s, j)} is that
 * decision's cash flow plus the discounted {@code V(t+1, s+Δ, j)}. The value of the storage is the mean of {@code
 * V(0, start, ·)}.
 *
 * <p>Domain: {@code levels × paths}, row {@code s} = level. Only the levels reachable at {@code t} (from the start,
 * and still able to get back to it by the end) are computed: that range grows and shrinks over the steps, and its
 * split into parts ({@link #bounds}) with it — the Swing pattern; a part's shadow region reaches {@link #withdraw}
 * levels below and {@link #inject} above, which change with the season. Immutable; the scenarios are built once.
 */
public final class GasStorage {
    private static final double BASE_PRICE = 20;
    private static final double SEASONAL = 0.25;
    private static final double KAPPA = 3;
    private static final double SIGMA = 0.6;
    private static final double COST = 0.1;
    private static final double RATE = 0.03;

    private final int steps;
    private final int paths;
    private final int levels;
    private final int parts;
    private final long seed;
    private final int[] lo;
    private final int[] hi;
    private double[][] factor;

    /**
     * The problem of {@code steps} time steps (a year), {@code paths} scenarios, {@code levels} stock levels split into
     * {@code parts} parts.
     */
    public GasStorage(int steps, int paths, int levels, int parts, long seed) {
        if (steps < 4 || paths < 4 || parts < 1 || levels < Math.max(parts, 8)) {
            throw new IllegalArgumentException("a gas storage needs steps >= 4, paths >= 4, levels >= max(parts, 8), parts >= 1, not "
                    + steps + ", " + paths + ", " + levels + ", " + parts);
        }
        this.steps = steps;
        this.paths = paths;
        this.levels = levels;
        this.parts = parts;
        this.seed = seed;
        this.lo = new int[steps + 1];
        this.hi = new int[steps + 1];
        long in = 0;
        long out = 0;
        long inTotal = 0;
        long outTotal = 0;
        for (int t = 0; t < steps; t++) {
            inTotal += inject(t);
            outTotal += withdraw(t);
        }
        for (int t = 0; t <= steps; t++) {
            lo[t] = (int) Math.max(0, Math.max(start() - out, start() - (inTotal - in)));
            hi[t] = (int) Math.min(levels - 1, Math.min(start() + in, start() + (outTotal - out)));
            if (t < steps) {
                in += inject(t);
                out += withdraw(t);
            }
        }
    }

    /** The preset {@code test} (24 steps, 64 paths, 24 levels) or {@code demo} (365, 1000, 101), 8 parts; steps if > 0. */
    public static GasStorage preset(String size, long steps) {
        GasStorage g = switch (size) {
            case "test" -> new GasStorage(24, 64, 24, 8, 7);
            case "demo" -> new GasStorage(365, 1000, 101, 8, 7);
            default -> throw new IllegalArgumentException("size must be test or demo, not '" + size + "'");
        };
        if (steps > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("--steps " + steps + " is too many");
        }
        return steps > 0 ? new GasStorage((int) steps, g.paths, g.levels, g.parts, g.seed) : g;
    }

    /** The number of time steps {@code T}. */
    public int steps() {
        return steps;
    }

    /** The number of price scenarios. */
    public int paths() {
        return paths;
    }

    /** The number of stock levels. */
    public int levels() {
        return levels;
    }

    /** The number of parts. */
    public int parts() {
        return parts;
    }

    /** The level the storage starts at and must end at. */
    public int start() {
        return levels / 4;
    }

    private boolean summer(int t) {
        return Math.abs(2 * t - steps) < steps / 2;
    }

    /** The most units that can be injected at step {@code t}. */
    public int inject(int t) {
        return summer(t) ? 3 : 1;
    }

    /** The most units that can be withdrawn at step {@code t}. */
    public int withdraw(int t) {
        return summer(t) ? 1 : 3;
    }

    /** The lowest level reachable at {@code t} ({@code 0 … T}). */
    public int lowest(int t) {
        return lo[t];
    }

    /** The highest level reachable at {@code t}. */
    public int highest(int t) {
        return hi[t];
    }

    /**
     * The split of the levels at step {@code t} into parts: part {@code p} possesses {@code [b[p], b[p+1])}. The reachable
     * levels are split evenly; part 0 also takes the levels below them and the last part those above; no part is empty.
     */
    public int[] bounds(int t) {
        int[] b = new int[parts + 1];
        int len = hi[t] - lo[t] + 1;
        b[parts] = levels;
        for (int p = 1; p < parts; p++) {
            b[p] = Math.max(lo[t] + (int) ((long) p * len / parts), b[p - 1] + 1);
        }
        for (int p = parts - 1; p >= 1; p--) {
            b[p] = Math.min(b[p], b[p + 1] - 1);
        }
        return b;
    }

    /**
     * The levels part {@code part} reads at step {@code t}, {@code {from, to}}: what it possesses and the reachable levels
     * of {@code t + 1} its reachable levels can move to.
     */
    public int[] needed(int part, int t) {
        int[] b = bounds(t);
        int from = Math.max(b[part], lo[t]);
        int to = Math.min(b[part + 1], hi[t] + 1);
        if (from >= to) {
            return new int[] {b[part], b[part + 1]};
        }
        int nFrom = Math.max(lo[t + 1], from - withdraw(t));
        int nTo = Math.min(hi[t + 1] + 1, to - 1 + inject(t) + 1);
        return new int[] {Math.min(b[part], nFrom), Math.max(b[part + 1], nTo)};
    }

    /** The price factor {@code X(t)} of every path (built on first use, the same on every rank). */
    private synchronized double[][] factor() {
        if (factor == null) {
            double dt = 1.0 / steps;
            double a = Math.exp(-KAPPA * dt);
            double b = SIGMA * Math.sqrt((1 - a * a) / (2 * KAPPA));
            double[][] x = new double[steps + 1][paths];
            for (int j = 0; j < paths; j++) {
                SplittableRandom random = new SplittableRandom(seed * 1_000_003L + j);
                for (int t = 0; t < steps; t++) {
                    x[t + 1][j] = a * x[t][j] + b * random.nextGaussian();
                }
            }
            factor = x;
        }
        return factor;
    }

    /** The price at {@code t} on path {@code j}. */
    public double price(int t, int j) {
        double dt = 1.0 / steps;
        double a = Math.exp(-KAPPA * dt);
        double variance = SIGMA * SIGMA * (1 - Math.pow(a, 2 * t)) / (2 * KAPPA);
        double forward = BASE_PRICE * (1 + SEASONAL * Math.cos(2 * Math.PI * t / steps));
        return forward * Math.exp(factor()[t][j] - variance / 2);
    }

    /** The price factor at {@code t} on path {@code j}. */
    public double factor(int t, int j) {
        return factor()[t][j];
    }

    /** The cash flow of changing the stock by {@code delta} units at {@code price}: negative when injecting. */
    public static double cash(int delta, double price) {
        return -delta * price - COST * Math.abs(delta);
    }

    /** The discount factor of one step. */
    public double discount() {
        return Math.exp(-RATE / steps);
    }

    /**
     * Computes the levels {@code [from, to)} of {@code V(t, ·)} into {@code out} (row {@code s} at {@code (s − outBase)·paths})
     * from {@code V(t+1, ·)} in {@code next} (row {@code s} at {@code (s − nextBase)·paths}), which must hold the levels
     * {@link #needed} says; unreachable levels get 0. The numerics both versions share.
     */
    public void compute(int t, int from, int to, double[] next, int nextBase, double[] out, int outBase) {
        int a = Math.max(from, lo[t]);
        int b = Math.min(to, hi[t] + 1);
        java.util.Arrays.fill(out, (from - outBase) * paths, (to - outBase) * paths, 0.0);
        if (a >= b) {
            return;
        }
        int first = Math.max(lo[t + 1], a - withdraw(t));
        int last = Math.min(hi[t + 1], b - 1 + inject(t));
        Regression r = new Regression(t);
        double[][] beta = new double[last - first + 1][];
        for (int s = first; s <= last; s++) {
            beta[s - first] = r.fit(next, (s - nextBase) * paths);
        }
        double d = discount();
        double[] prices = new double[paths];
        for (int j = 0; j < paths; j++) {
            prices[j] = price(t, j);
        }
        for (int s = a; s < b; s++) {
            int o = (s - outBase) * paths;
            int dMin = Math.max(-withdraw(t), lo[t + 1] - s);
            int dMax = Math.min(inject(t), hi[t + 1] - s);
            for (int j = 0; j < paths; j++) {
                double price = prices[j];
                double z = r.z[j];
                int best = dMin;
                double bestValue = Double.NEGATIVE_INFINITY;
                for (int delta = dMin; delta <= dMax; delta++) {
                    double[] c = beta[s + delta - first];
                    double v = cash(delta, price) + d * (c[0] + z * (c[1] + z * c[2]));
                    if (v > bestValue) {
                        bestValue = v;
                        best = delta;
                    }
                }
                out[o + j] = cash(best, price) + d * next[(s + best - nextBase) * paths + j];
            }
        }
    }

    /** Least squares on {@code 1, z, z²} over the paths at one step (the mean alone when the factor is constant, at 0). */
    private final class Regression {
        final double[] z = new double[paths];
        private final double[] inverse;

        Regression(int t) {
            double mean = 0;
            for (int j = 0; j < paths; j++) {
                mean += factor(t, j);
            }
            mean /= paths;
            double var = 0;
            for (int j = 0; j < paths; j++) {
                var += (factor(t, j) - mean) * (factor(t, j) - mean);
            }
            var /= paths;
            if (var == 0) {
                inverse = null;
                return;
            }
            double[] g = new double[9];
            for (int j = 0; j < paths; j++) {
                z[j] = (factor(t, j) - mean) / Math.sqrt(var);
                double[] phi = {1, z[j], z[j] * z[j]};
                for (int k = 0; k < 9; k++) {
                    g[k] += phi[k / 3] * phi[k % 3];
                }
            }
            double det = g[0] * (g[4] * g[8] - g[5] * g[7]) - g[1] * (g[3] * g[8] - g[5] * g[6]) + g[2] * (g[3] * g[7] - g[4] * g[6]);
            inverse = new double[] {(g[4] * g[8] - g[5] * g[7]) / det, (g[2] * g[7] - g[1] * g[8]) / det, (g[1] * g[5] - g[2] * g[4]) / det,
                (g[5] * g[6] - g[3] * g[8]) / det, (g[0] * g[8] - g[2] * g[6]) / det, (g[2] * g[3] - g[0] * g[5]) / det,
                (g[3] * g[7] - g[4] * g[6]) / det, (g[1] * g[6] - g[0] * g[7]) / det, (g[0] * g[4] - g[1] * g[3]) / det};
        }

        /** The coefficients for the values {@code v[off … off + paths)}. */
        double[] fit(double[] v, int off) {
            double[] rhs = new double[3];
            for (int j = 0; j < paths; j++) {
                rhs[0] += v[off + j];
                rhs[1] += z[j] * v[off + j];
                rhs[2] += z[j] * z[j] * v[off + j];
            }
            if (inverse == null) {
                return new double[] {rhs[0] / paths, 0, 0};
            }
            double[] c = new double[3];
            for (int k = 0; k < 3; k++) {
                c[k] = inverse[3 * k] * rhs[0] + inverse[3 * k + 1] * rhs[1] + inverse[3 * k + 2] * rhs[2];
            }
            return c;
        }
    }

    /** The settings that determine the result. */
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("steps", Integer.toString(steps));
        s.put("paths", Integer.toString(paths));
        s.put("levels", Integer.toString(levels));
        s.put("parts", Integer.toString(parts));
        s.put("seed", Long.toString(seed));
        return s;
    }

    /** The problem in words. */
    public String describe() {
        return String.format(Locale.ROOT, "gas storage, %d steps, %d price paths, %d levels, %d parts", steps, paths, levels, parts);
    }
}
