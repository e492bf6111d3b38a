package io.ironloop.objectstore;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.Ironloop;
import io.ironloop.runtime.RuntimeKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A small DeLIA-style job of two ranks in one JVM (in-JVM group), through the real runtime: every iteration each
 * rank fills its local array from (rank, iteration), the ranks sum them into the global array (8 MiB, so every
 * global line is a multipart upload) and fold it into a checksum; the global state is saved every iteration.
 * Rank 0 prints {@code checksum=<n>} on standard output at the end.
 *
 * <p>Arguments: {@code iterations pauseMillis KEY=VALUE...} (parameters, such as {@code FT_FOLDER}, {@code S3_URI}).
 */
public final class LevelJobMain {
    /** 6 MiB of doubles: two parts of the smallest size S3 allows. */
    static final int SIZE = 6 << 17;

    private LevelJobMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> overrides = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            overrides.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        System.out.println("checksum=" + run(Integer.parseInt(args[0]), Long.parseLong(args[1]), overrides));
    }

    /** Runs the job with these parameters; returns rank 0's checksum. */
    static long run(int iterations, long pause, Map<String, String> overrides) throws Exception {
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), overrides);
        int ranks = 2;
        ExecutorService pool = Executors.newFixedThreadPool(ranks);
        try (InJvmCluster cluster = InJvmCluster.open("levels", ranks)) {
            List<Future<Long>> results = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    try (Ironloop ft = Ironloop.builder().parameters(p).settings(Map.of("app", "levels", "iterations", iterations))
                            .joinWith(l -> cluster.group(rank)).start()) {
                        return loop(ft, iterations, pause);
                    }
                }));
            }
            results.get(1).get();
            return results.get(0).get();
        } finally {
            pool.shutdownNow();
        }
    }

    private static long loop(Ironloop ft, int iterations, long pause) throws InterruptedException {
        double[] local = new double[SIZE];
        double[] global = new double[SIZE];
        long[] checksum = new long[1];
        ft.registerGlobal("global", global);
        ft.registerGlobal("checksum", checksum);
        if (ft.canRecoverGlobal()) {
            ft.readGlobal();
        }
        for (long i = ft.iteration(); i < iterations; i++) {
            for (int k = 0; k < SIZE; k++) {
                local[k] = (ft.rank() + 1) * 1.5 * k + i;
            }
            double[] sum = ft.group().allreduce(local, ReduceOp.SUM);
            System.arraycopy(sum, 0, global, 0, SIZE);
            long h = checksum[0] * 31 + i;
            for (int k = 0; k < SIZE; k += 97) {
                h = h * 1_000_003 + Double.doubleToRawLongBits(global[k]);
            }
            checksum[0] = h;
            Thread.sleep(pause);
            ft.saveGlobal();
        }
        return checksum[0];
    }
}
