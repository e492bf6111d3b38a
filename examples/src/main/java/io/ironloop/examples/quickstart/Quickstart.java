package io.ironloop.examples.quickstart;

import java.util.Arrays;
import java.util.Locale;

import io.ironloop.examples.ResultDigest;

/**
 * One rank of DeLIA's quick-start program: its local data, the global data, and the progress
 * (iteration and running checksum), with the steps of an iteration as methods.
 *
 * <p>A runtime drives it with its own allreduce:
 * <pre>{@code
 * Quickstart app = new Quickstart(rank, dataSize, iterations);
 * // register app.globalData() and app.progress() as global state, app.localData() as local state;
 * // on recovery, overwrite them in place
 * while (!app.isFinished()) {
 *     app.computeLocal();                                  // local_data[i] = rank * i * ind
 *     allreduceSum(app.localData(), app.globalData());     // MPI_Allreduce(..., MPI_SUM, ...)
 *     app.completeIteration();                              // checksum, ind++
 *     // save the global state (DeLIA_SaveGlobalData)
 * }
 * System.out.println(app.resultLine());
 * }</pre>
 * All values are integers below 2<sup>53</sup> for any realistic size, so the allreduce is exact in
 * any order and every rank ends with the same bits.
 *
 * <p>Not thread-safe.
 */
public final class Quickstart {
    /** Elements per array when none is given. */
    public static final int DEFAULT_DATA_SIZE = 1000;
    /** Iterations when none are given. */
    public static final int DEFAULT_ITERATIONS = 20;

    private static final int ITERATION = 0;
    private static final int CHECKSUM = 1;

    private final int rank;
    private final int iterations;
    private final double[] localData;
    private final double[] globalData;
    private final long[] progress = new long[2];

    /**
     * Creates the state of {@code rank}, before the first iteration.
     *
     * @throws IllegalArgumentException if {@code rank} is negative or a size is not positive
     */
    public Quickstart(int rank, int dataSize, int iterations) {
        if (rank < 0 || dataSize <= 0 || iterations <= 0) {
            throw new IllegalArgumentException("need rank >= 0, dataSize > 0, iterations > 0: "
                    + rank + ", " + dataSize + ", " + iterations);
        }
        this.rank = rank;
        this.iterations = iterations;
        this.localData = new double[dataSize];
        this.globalData = new double[dataSize];
    }

    /** This rank's contribution, overwritten by {@link #computeLocal()}. Local state. */
    public double[] localData() {
        return localData;
    }

    /** The sum of all ranks' local data of the current iteration. Global state. */
    public double[] globalData() {
        return globalData;
    }

    /** {@code [next iteration, running checksum]}. Global state. */
    public long[] progress() {
        return progress;
    }

    /** The iteration about to run (DeLIA's {@code ind}). */
    public int iteration() {
        return (int) progress[ITERATION];
    }

    /** Whether every iteration has run. */
    public boolean isFinished() {
        return progress[ITERATION] >= iterations;
    }

    /** Fills the local data of the current iteration: {@code local_data[i] = rank * i * ind}. */
    public void computeLocal() {
        computeLocal(rank, iteration(), localData);
    }

    /** Folds the global data (already reduced) into the checksum and moves to the next iteration. */
    public void completeIteration() {
        progress[CHECKSUM] = fold(progress[CHECKSUM], iteration(), globalData);
        progress[ITERATION]++;
    }

    /**
     * SHA-256 over the global data, the checksum and the iteration count (little-endian), as the
     * {@code result sha256=<hex>} line.
     */
    public String resultLine() {
        return new ResultDigest().putDoubles(globalData).putLong(progress[CHECKSUM])
                .putLong(progress[ITERATION]).resultLine();
    }

    /**
     * Listing 8's inner loop: {@code local[i] = rank * i * iteration}, computed in 64-bit integers
     * (C's {@code int} product would overflow first) and stored as doubles.
     */
    public static void computeLocal(int rank, int iteration, double[] local) {
        for (int i = 0; i < local.length; i++) {
            local[i] = (double) ((long) rank * i * iteration);
        }
    }

    /**
     * Folds one iteration's global data into a running 64-bit checksum: order-sensitive, and every
     * bit of every element and of the iteration number affects the result.
     */
    public static long fold(long checksum, int iteration, double[] global) {
        long h = mix(checksum ^ (0x9E3779B97F4A7C15L * (iteration + 1L)));
        for (double v : global) {
            h = mix(h ^ Double.doubleToRawLongBits(v)) + 0x9E3779B97F4A7C15L;
        }
        return h;
    }

    /** SplitMix64's finaliser: a bijection of 64-bit values with full avalanche. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Runs the program for {@code ranks} ranks inside this JVM, the allreduce being a sum in rank
     * order: the failure-free reference. Usage: {@code Quickstart [ranks [dataSize [iterations]]]};
     * progress goes to standard error, the {@code result sha256=} line to standard output.
     */
    public static void main(String[] args) {
        int ranks = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_DATA_SIZE;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_ITERATIONS;
        System.out.println(simulate(ranks, size, iterations));
    }

    /** The result line of {@link #main} for the given sizes: the failure-free reference. */
    public static String simulate(int ranks, int size, int iterations) {
        Quickstart[] apps = new Quickstart[ranks];
        Arrays.setAll(apps, r -> new Quickstart(r, size, iterations));
        double[] sum = new double[size];
        while (!apps[0].isFinished()) {
            Arrays.fill(sum, 0.0);
            for (Quickstart app : apps) {
                app.computeLocal();
                for (int i = 0; i < size; i++) {
                    sum[i] += app.localData[i];
                }
            }
            for (Quickstart app : apps) {
                System.arraycopy(sum, 0, app.globalData, 0, size);
                app.completeIteration();
            }
            System.err.printf(Locale.ROOT, "Iteration %d ends%n", apps[0].iteration() - 1);
        }
        return apps[0].resultLine();
    }
}
