package io.ironloop.examples.fwi;

/**
 * The memory of limited-memory BFGS and its two-loop recursion, kept in plain arrays.
 *
 * <p>The last {@code m} pairs {@code s = x_{k+1} - x_k}, {@code y = g_{k+1} - g_k} live in a ring:
 * {@link #sHistory()} and {@link #yHistory()} hold {@code m} slots of {@code n} doubles each, and
 * {@link #ring()} holds {@code [count, oldest slot]}. These three arrays are the whole state: a
 * runtime may save them and later overwrite them in place, and the next {@link #direction} is then
 * bit-identical to the one the saved instance would have computed. Nothing else is cached between
 * calls ({@code rho = 1 / y.s} is recomputed each time, in a fixed order).
 *
 * <p>The initial inverse Hessian is {@code gamma * diag(h0)} with the usual scaling
 * {@code gamma = s.y / y.h0.y} of the newest pair (Nocedal and Wright, Algorithm 7.4).
 *
 * <p>Not thread-safe.
 */
public final class Lbfgs {
    private static final int COUNT = 0;
    private static final int OLDEST = 1;

    private final int n;
    private final int memory;
    private final double[] s;
    private final double[] y;
    private final long[] ring = new long[2];
    private final double[] alpha;
    private final double[] q;

    /**
     * Creates an empty memory.
     *
     * @param n      number of unknowns, positive
     * @param memory number of pairs kept, positive
     */
    public Lbfgs(int n, int memory) {
        if (n <= 0 || memory <= 0) {
            throw new IllegalArgumentException("n and memory must be positive: " + n + ", " + memory);
        }
        this.n = n;
        this.memory = memory;
        this.s = new double[Math.multiplyExact(n, memory)];
        this.y = new double[n * memory];
        this.alpha = new double[memory];
        this.q = new double[n];
    }

    /**
     * The {@code s} vectors: slot {@code j} occupies {@code [j*n, (j+1)*n)}. State: overwrite in
     * place to restore.
     */
    public double[] sHistory() {
        return s;
    }

    /** The {@code y} vectors, laid out like {@link #sHistory()}. State. */
    public double[] yHistory() {
        return y;
    }

    /** {@code [number of pairs held, slot of the oldest pair]}. State. */
    public long[] ring() {
        return ring;
    }

    /** Number of pairs the memory keeps at most. */
    public int capacity() {
        return memory;
    }

    /** Number of pairs currently held. */
    public int size() {
        return (int) ring[COUNT];
    }

    /** Forgets every pair. */
    public void clear() {
        ring[COUNT] = 0;
        ring[OLDEST] = 0;
    }

    /**
     * Stores the pair {@code (step, change)}, dropping the oldest when full, unless its curvature
     * {@code step . change} is not safely positive (then BFGS would lose positive definiteness).
     *
     * @return whether the pair was stored
     */
    public boolean push(double[] step, double[] change) {
        checkLength(step);
        checkLength(change);
        double sy = dot(step, 0, change, 0);
        double ss = dot(step, 0, step, 0);
        double yy = dot(change, 0, change, 0);
        if (!(sy > 1e-12 * Math.sqrt(ss * yy))) {
            return false;
        }
        int count = size();
        int slot;
        if (count < memory) {
            slot = (int) ((ring[OLDEST] + count) % memory);
            ring[COUNT] = count + 1;
        } else {
            slot = (int) ring[OLDEST];
            ring[OLDEST] = (slot + 1) % memory;
        }
        System.arraycopy(step, 0, s, slot * n, n);
        System.arraycopy(change, 0, y, slot * n, n);
        return true;
    }

    /**
     * Writes the quasi-Newton search direction {@code -H g} into {@code out}.
     *
     * @param gradient the current gradient {@code g}
     * @param h0       diagonal of the initial inverse Hessian before scaling (non-negative)
     * @param out      receives the direction; may not alias {@code gradient}
     */
    public void direction(double[] gradient, double[] h0, double[] out) {
        checkLength(gradient);
        checkLength(h0);
        checkLength(out);
        int count = size();
        System.arraycopy(gradient, 0, q, 0, n);
        for (int k = count - 1; k >= 0; k--) {
            int at = slot(k) * n;
            double a = dot(s, at, q, 0) / dot(y, at, s, at);
            alpha[k] = a;
            for (int i = 0; i < n; i++) {
                q[i] -= a * y[at + i];
            }
        }
        double gamma = 1.0;
        if (count > 0) {
            int at = slot(count - 1) * n;
            double yhy = 0.0;
            for (int i = 0; i < n; i++) {
                yhy += y[at + i] * h0[i] * y[at + i];
            }
            gamma = dot(s, at, y, at) / yhy;
        }
        for (int i = 0; i < n; i++) {
            out[i] = gamma * h0[i] * q[i];
        }
        for (int k = 0; k < count; k++) {
            int at = slot(k) * n;
            double beta = dot(y, at, out, 0) / dot(y, at, s, at);
            double c = alpha[k] - beta;
            for (int i = 0; i < n; i++) {
                out[i] += c * s[at + i];
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = -out[i];
        }
    }

    /** Slot of the k-th oldest pair. */
    private int slot(int k) {
        return (int) ((ring[OLDEST] + k) % memory);
    }

    /** Sum of {@code a[at + i] * b[bt + i]} for {@code i < n}, in index order. */
    private double dot(double[] a, int at, double[] b, int bt) {
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            sum += a[at + i] * b[bt + i];
        }
        return sum;
    }

    private void checkLength(double[] v) {
        if (v.length != n) {
            throw new IllegalArgumentException("expected " + n + " values, got " + v.length);
        }
    }
}
