package io.ironloop.benchmarks;

/** How dispersed repeated measurements are: DeLIA's relative standard deviation (Table 2, equation 5). */
public final class Dispersion {
    private Dispersion() {
    }

    /** The arithmetic mean. */
    public static double mean(double[] values) {
        requireSome(values, 1);
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** The sample standard deviation (divisor n − 1). */
    public static double sampleStandardDeviation(double[] values) {
        requireSome(values, 2);
        double mean = mean(values);
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        return Math.sqrt(squares / (values.length - 1));
    }

    /** The relative standard deviation in percent: sample SD / mean × 100. */
    public static double rsdPercent(double[] values) {
        return sampleStandardDeviation(values) / mean(values) * 100;
    }

    private static void requireSome(double[] values, int least) {
        if (values.length < least) {
            throw new IllegalArgumentException("need at least " + least + " values, got " + values.length);
        }
    }
}
