package io.ironloop.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A candidate against a reference measured in alternating pairs, for overheads of a few percent on a noisy machine:
 * after one warm-up run of each side, one more unmeasured run of each fixes how many runs each side makes back to back
 * per pair (at least {@code sideSeconds} worth), the two sides alternate which goes first, and the figure is the median of the per-pair
 * ratios (candidate seconds / reference seconds), with the smallest and largest ratio as the spread. A drift of the
 * machine's speed over minutes cancels within a pair; one pair's luck moves the median little.
 *
 * <p>Each run returns its own {@link Sample} ({@link #time}), so that both sides time the same span (what lies outside
 * it, such as joining a group or deleting files, is left out alike). Besides the wall-clock seconds a sample holds the
 * calling thread's CPU seconds: where the work runs on that thread, their ratio moves far less with the machine's load
 * than the wall clock's (other processes delay a run, but do not add to its CPU time).
 */
public final class PairedRuns {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private PairedRuns() {
    }

    /**
     * What one run took.
     *
     * @param seconds wall-clock seconds
     * @param cpuSeconds the calling thread's CPU seconds over the same span (0 where the JVM cannot measure it)
     */
    public record Sample(double seconds, double cpuSeconds) {
    }

    /** Runs {@code span} on this thread and measures it. */
    public static Sample time(Runnable span) {
        boolean cpu = THREADS.isCurrentThreadCpuTimeSupported();
        long cpuStart = cpu ? THREADS.getCurrentThreadCpuTime() : 0;
        long start = System.nanoTime();
        span.run();
        long end = System.nanoTime();
        return new Sample((end - start) / 1e9, cpu ? (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9 : 0);
    }

    /**
     * Runs {@code span} on this thread and measures it with the CPU seconds of this whole process (all its threads)
     * beside the wall clock: for a run whose work spreads over threads of its own (a block loop's workers, its
     * background writes), while nothing else runs in this process.
     */
    public static Sample timeProcess(Runnable span) {
        long cpuStart = PROCESS.getProcessCpuTime();
        long start = System.nanoTime();
        span.run();
        long end = System.nanoTime();
        long cpu = PROCESS.getProcessCpuTime();
        return new Sample((end - start) / 1e9, cpuStart < 0 || cpu < 0 ? 0 : (cpu - cpuStart) / 1e9);
    }

    /**
     * The result of {@link #compare}.
     *
     * @param reference mean seconds of one reference run, per pair
     * @param candidate mean seconds of one candidate run, per pair
     * @param referenceCpu mean CPU seconds in one reference run, per pair (the calling thread's, {@link #time}, or the
     *     process's, {@link #timeProcess}: whichever the runs measured)
     * @param candidateCpu the same for the candidate
     * @param runsPerSide runs each side made per pair
     */
    public record Comparison(double[] reference, double[] candidate, double[] referenceCpu, double[] candidateCpu, int runsPerSide) {
        /** Candidate over reference, per pair. */
        public double[] ratios() {
            return ratios(candidate, reference);
        }

        /** (median ratio of the samples' CPU seconds − 1) × 100. */
        public double cpuOverheadPct() {
            return (Medians.median(ratios(candidateCpu, referenceCpu)) - 1) * 100;
        }

        private static double[] ratios(double[] over, double[] under) {
            double[] r = new double[under.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = over[i] / under[i];
            }
            return r;
        }

        /** (median ratio − 1) × 100. */
        public double overheadPct() {
            return (Medians.median(ratios()) - 1) * 100;
        }

        /**
         * The 95 % distribution-free confidence interval of the median ratio, as {@code {low, high}} percentages
         * ({@link Medians#interval}); with fewer than six pairs it is the smallest and largest ratio, of lower coverage.
         */
        public double[] overheadIntervalPct() {
            double[] ci = Medians.interval(ratios(), 0.95);
            return new double[] {(ci[0] - 1) * 100, (ci[1] - 1) * 100};
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
     * @param reference one run of the reference, returning what it took ({@link #time})
     * @param candidate one run of the candidate, likewise
     * @throws IllegalArgumentException if {@code pairs} is below 1 or {@code sideSeconds} is negative
     */
    public static Comparison compare(String name, int pairs, double sideSeconds, Supplier<Sample> reference, Supplier<Sample> candidate,
            PrintStream err) {
        if (pairs < 1 || !(sideSeconds >= 0)) {
            throw new IllegalArgumentException("need at least one pair and seconds >= 0, not " + pairs + " pairs of " + sideSeconds + " s");
        }
        reference.get(); // warm-up of both sides (class loading, the JIT), then one run each to size the pairs
        candidate.get();
        double once = Math.max(reference.get().seconds(), candidate.get().seconds());
        int runs = (int) Math.max(1, Math.ceil(sideSeconds / Math.max(once, 1e-6)));
        double[][] wall = new double[2][pairs];
        double[][] cpu = new double[2][pairs];
        for (int p = 0; p < pairs; p++) {
            boolean referenceFirst = p % 2 == 0;
            for (int side = 0; side < 2; side++) {
                int which = (side == 0) == referenceFirst ? 0 : 1;
                for (int k = 0; k < runs; k++) {
                    Sample s = which == 0 ? reference.get() : candidate.get();
                    wall[which][p] += s.seconds() / runs;
                    cpu[which][p] += s.cpuSeconds() / runs;
                }
            }
            err.printf(Locale.ROOT, "%s pair %d: %d runs each, reference %.4f s, candidate %.4f s (%+.2f %%); CPU %.4f s, %.4f s (%+.2f %%)%n",
                    name, p + 1, runs, wall[0][p], wall[1][p], (wall[1][p] / wall[0][p] - 1) * 100, cpu[0][p], cpu[1][p],
                    (cpu[1][p] / cpu[0][p] - 1) * 100);
        }
        return new Comparison(wall[0], wall[1], cpu[0], cpu[1], runs);
    }
}
