package io.ironloop.runtime.tasks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Runs one body per rank, each on its own thread, as the ranks of an in-JVM job (test helper). */
final class RankThreads {
    private RankThreads() {
    }

    /** Runs {@code body(rank)} for every rank concurrently; waits at most 20 s; rethrows the first failure. */
    static <T> List<T> run(int n, IntFunction<T> body) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "test-rank");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(threads.submit(() -> body.apply(rank)));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    out.add(f.get(20, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
            return out;
        } finally {
            threads.shutdownNow();
        }
    }

    /** Sleeps, turning an interrupt into an unchecked exception (work callbacks cannot throw checked ones). */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
