package io.ironloop.benchmarks;

import java.util.Arrays;

/** Medians of repeated measurements. */
public final class Medians {
    private Medians() {
    }

    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
