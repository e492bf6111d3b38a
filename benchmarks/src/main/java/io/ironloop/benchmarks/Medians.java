package io.ironloop.benchmarks;

import java.util.Arrays;

/** Medians of repeated measurements, and how far the true median can lie from the one measured. */
public final class Medians {
    private Medians() {
    }

    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /**
     * A distribution-free confidence interval for the median of what {@code values} were drawn from: the k-th smallest
     * and k-th largest value, k the largest for which the binomial(n, ½) law puts at least {@code confidence} on the
     * median lying between them (the sign test's interval). It assumes only independent draws, not a normal law, so a
     * bench's outliers widen it honestly instead of shifting it.
     *
     * @param values at least one measurement
     * @param confidence the wanted coverage, in (0, 1), usually 0.95
     * @return {@code {low, high}}; with too few values for the coverage ({@code n} below 6 at 0.95) the interval
     *     reached is still {@code {min, max}}, whose coverage {@link #coverage} says
     * @throws IllegalArgumentException if {@code values} is empty or {@code confidence} is outside (0, 1)
     */
    public static double[] interval(double[] values, double confidence) {
        if (values.length == 0 || !(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("need at least one value and a confidence in (0, 1), not " + values.length
                    + " values at " + confidence);
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int k = order(v.length, confidence);
        return new double[] {v[k - 1], v[v.length - k]};
    }

    /** The coverage of the interval {@link #interval} returns for {@code n} values: 1 − 2·P(Binomial(n, ½) < k). */
    public static double coverage(int n, double confidence) {
        return 1 - 2 * binomialBelow(n, order(n, confidence));
    }

    /** The largest k (1-based, at least 1) with 1 − 2·P(B < k) ≥ confidence, B ~ Binomial(n, ½). */
    private static int order(int n, double confidence) {
        int k = 1;
        while (k + 1 <= (n + 1) / 2 && 1 - 2 * binomialBelow(n, k + 1) >= confidence) {
            k++;
        }
        return k;
    }

    /** P(B < k) for B ~ Binomial(n, ½), summed in logs so that n in the thousands stays finite. */
    private static double binomialBelow(int n, int k) {
        double sum = 0;
        double logChoose = 0; // log C(n, 0)
        for (int i = 0; i < k; i++) {
            sum += Math.exp(logChoose - n * Math.log(2));
            logChoose += Math.log(n - i) - Math.log(i + 1);
        }
        return sum;
    }
}
