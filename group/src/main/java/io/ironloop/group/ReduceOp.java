package io.ironloop.group;

/**
 * The element-wise combination of an allreduce. Values are always combined in rank order
 * ({@code ((v0 op v1) op v2) ...}), whatever the timing, so floating-point results are bit-reproducible.
 */
public enum ReduceOp {
    /** Sum. */
    SUM,
    /** Product. */
    PROD,
    /** Minimum ({@link Math#min}: for doubles, NaN wins and -0.0 is below 0.0). */
    MIN,
    /** Maximum ({@link Math#max}: for doubles, NaN wins and 0.0 is above -0.0). */
    MAX;

    /** Combines two doubles. */
    public double apply(double a, double b) {
        return switch (this) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
        };
    }

    /** Combines two longs (SUM and PROD wrap around on overflow, as Java arithmetic does). */
    public long apply(long a, long b) {
        return switch (this) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
        };
    }

    /** Combines two ints (SUM and PROD wrap around on overflow, as Java arithmetic does). */
    public int apply(int a, int b) {
        return switch (this) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
        };
    }
}
