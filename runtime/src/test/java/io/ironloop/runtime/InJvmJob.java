package io.ironloop.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.ironloop.config.Parameters;
import io.ironloop.group.GroupListener;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ReduceOp;

/**
 * Runs a small DeLIA-style application on in-JVM ranks: each iteration every rank fills its local array
 * from (rank, iteration), the ranks sum them, and the sum is folded into a running checksum (global state).
 * A run can stop every rank after a given number of iterations (a job that died) or crash one rank.
 */
final class InJvmJob {
    static final int SIZE = 64;

    record Outcome(List<Long> checksums, List<Long> startedAt, List<Throwable> errors) {
        long checksum() {
            return checksums.get(0);
        }
    }

    private final Path folder;
    private final Map<String, String> overrides = new HashMap<>();

    InJvmJob(Path folder) {
        this.folder = folder;
        overrides.put("FT_FOLDER", folder.toString());
    }

    InJvmJob with(String key, String value) {
        overrides.put(key, value);
        return this;
    }

    Parameters parameters() {
        return Parameters.load(RuntimeKeys.TABLE, null, Map.of(), overrides);
    }

    /** Runs {@code ranks} ranks for {@code iterations}; every rank stops (abandons the job) after {@code stopAfter} saves. */
    Outcome run(int ranks, int iterations, int stopAfter, Map<String, ?> settings) throws Exception {
        return each(ranks, settings, ft -> loop(ft, iterations, stopAfter));
    }

    /** Runs {@code body} on {@code ranks} in-JVM ranks, each with its own runtime; body returns {checksum, start}. */
    Outcome each(int ranks, Map<String, ?> settings, java.util.function.Function<Ironloop, long[]> body) throws Exception {
        Ironloop[] rt = new Ironloop[ranks];
        GroupListener[] forward = new GroupListener[ranks];
        Parameters p = parameters();
        try (InJvmCluster cluster = InJvmCluster.open("job", ranks, r -> new GroupListener() {
            @Override
            public void failed(java.util.Set<Integer> worldRanks) {
                if (forward[r] != null) {
                    forward[r].failed(worldRanks);
                }
            }
        })) {
            ExecutorService pool = Executors.newFixedThreadPool(ranks);
            try {
                List<Future<long[]>> results = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    int rank = r;
                    results.add(pool.submit(() -> {
                        try (Ironloop ft = Ironloop.builder().parameters(p).settings(settings).joinWith(l -> {
                            forward[rank] = l;
                            return cluster.group(rank);
                        }).start()) {
                            rt[rank] = ft;
                            return body.apply(ft);
                        }
                    }));
                }
                List<Long> sums = new ArrayList<>();
                List<Long> starts = new ArrayList<>();
                List<Throwable> errors = new ArrayList<>();
                for (Future<long[]> f : results) {
                    try {
                        long[] v = f.get(60, TimeUnit.SECONDS);
                        sums.add(v[0]);
                        starts.add(v[1]);
                    } catch (java.util.concurrent.ExecutionException e) {
                        errors.add(e.getCause());
                    }
                }
                return new Outcome(sums, starts, errors);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * {@link #loop} in the short form of the README: {@link Ironloop#resume()} and {@link Ironloop#endIteration()}
     * instead of DeLIA's separate calls.
     */
    static long[] shortLoop(Ironloop ft, int iterations, int stopAfter) {
        return loop(ft, iterations, stopAfter, true);
    }

    static long[] loop(Ironloop ft, int iterations, int stopAfter) {
        return loop(ft, iterations, stopAfter, false);
    }

    private static long[] loop(Ironloop ft, int iterations, int stopAfter, boolean shortForm) {
        double[] local = new double[SIZE];
        double[] global = new double[SIZE];
        long[] checksum = new long[1];
        ft.registerGlobal("global", global);
        ft.registerGlobal("checksum", checksum);
        ft.registerLocal("local", local);
        long started = 0;
        if (shortForm) {
            started = ft.resume();
        } else if (ft.canRecoverGlobal()) {
            started = ft.readGlobal();
        }
        for (long i = ft.iteration(); i < iterations; i++) {
            if (i == stopAfter) {
                return new long[] {Long.MIN_VALUE, started};
            }
            for (int k = 0; k < SIZE; k++) {
                local[k] = (ft.rank() + 1) * 1.5 * k + i;
            }
            if (!shortForm) {
                ft.publishLocal();
            }
            double[] sum = ft.group().allreduce(local, ReduceOp.SUM);
            System.arraycopy(sum, 0, global, 0, SIZE);
            long h = checksum[0] * 31 + i;
            for (double v : global) {
                h = h * 1_000_003 + Double.doubleToRawLongBits(v);
            }
            checksum[0] = h;
            if (shortForm) {
                ft.endIteration();
            } else {
                ft.saveGlobal();
            }
        }
        ft.complete("checksum=" + checksum[0]);
        return new long[] {checksum[0], started};
    }
}
