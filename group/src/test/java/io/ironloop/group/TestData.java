package io.ironloop.group;

import java.util.Random;

/** Seeded test values whose sum depends on the summation order (test helper). */
public final class TestData {
    private TestData() {
    }

    /** Values of very different magnitudes, so that summation order changes the bits of the result. */
    public static double[] values(int rank, int n) {
        Random random = new Random(1234 + rank);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextGaussian() * Math.pow(10, random.nextInt(30) - 15);
        }
        return v;
    }

    /** The sum of {@link #values} over ranks 0..size-1, in rank order. */
    public static double[] expectedSum(int size, int n) {
        double[] acc = values(0, n);
        for (int r = 1; r < size; r++) {
            double[] v = values(r, n);
            for (int i = 0; i < n; i++) {
                acc[i] += v[i];
            }
        }
        return acc;
    }
}
