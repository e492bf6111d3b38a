package io.ironloop.benchmarks;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * A candidate against a reference measured in alternating pairs, for overheads of a few percent on a noisy machine:
 * one unmeasured warm-up run of each side fixes how many runs each side makes back to back per pair (at least
 * {@code sideSeconds} worth), the two sides alternate which goes first, and the figure is the median of the per-pair
 * ratios (candidate seconds / reference seconds), with the smallest and largest ratio as the spread. A drift of the
 * machine's speed over minutes cancels within a pair; one pair's luck moves the median little.
 *
 * <p>Each run returns its own seconds, so that both sides time the same span (what lies outside it, such as joining a
 * group or deleting files, is left out alike).
 */
public final class PairedRuns {
    private PairedRuns() {
    }

    /**
     * The result of {@link #compare}.
     *
     * @param reference mean seconds of one reference run, per pair
     * @param candidate mean seconds of one candidate run, per pair
     * @param runsPerSide runs each side made per pair
     */
    public record Comparison(double[] reference, double[] candidate, int runsPerSide) {
        /** Candidate over reference, per pair. */
        public double[] ratios() {
            double[] r = new double[reference.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = candidate[i] / reference[i];
            }
            return r;
        }

        /** (median ratio − 1) × 100. */
        public double overheadPct() {
            return (Medians.median(ratios()) - 1) * 100;
        }

        /** (smallest ratio − 1) × 100. */
        public double minPct() {
            return (Arrays.stream(ratios()).min().orElseThrow() - 1) * 100;
        }

        /** (largest ratio − 1) × 100. */
        public double maxPct() {
            return (Arrays.stream(ratios()).max().orElseThrow() - 1) * 100;
        }
    }

    /**
     * Measures {@code pairs} pairs of {@code reference} and {@code candidate} runs.
     *
     * @param name what is compared, for the progress lines on {@code err}
     * @param pairs the number of pairs, at least 1
     * @param sideSeconds the least seconds each side of a pair runs
     * @param reference one run of the reference, returning its seconds
     * @param candidate one run of the candidate, returning its seconds
     * @throws IllegalArgumentException if {@code pairs} is below 1 or {@code sideSeconds} is negative
     */
    public static Comparison compare(String name, int pairs, double sideSeconds, DoubleSupplier reference, DoubleSupplier candidate,
            PrintStream err) {
        if (pairs < 1 || !(sideSeconds >= 0)) {
            throw new IllegalArgumentException("need at least one pair and seconds >= 0, not " + pairs + " pairs of " + sideSeconds + " s");
        }
        double once = Math.max(reference.getAsDouble(), candidate.getAsDouble()); // warm-up of both sides
        int runs = (int) Math.max(1, Math.ceil(sideSeconds / Math.max(once, 1e-6)));
        double[] ref = new double[pairs];
        double[] cand = new double[pairs];
        for (int p = 0; p < pairs; p++) {
            boolean referenceFirst = p % 2 == 0;
            for (int side = 0; side < 2; side++) {
                boolean referenceSide = (side == 0) == referenceFirst;
                double sum = 0;
                for (int k = 0; k < runs; k++) {
                    sum += referenceSide ? reference.getAsDouble() : candidate.getAsDouble();
                }
                (referenceSide ? ref : cand)[p] = sum / runs;
            }
            err.printf(Locale.ROOT, "%s pair %d: %d runs each, reference %.4f s, candidate %.4f s (%+.2f %%)%n", name, p + 1, runs, ref[p],
                    cand[p], (cand[p] / ref[p] - 1) * 100);
        }
        return new Comparison(ref, cand, runs);
    }
}
