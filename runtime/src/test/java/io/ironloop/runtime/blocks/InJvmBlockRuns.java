package io.ironloop.runtime.blocks;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/** Block loops of {@link TestHeatBlock}s on an in-JVM cluster, with ranks that crash at a given iteration. */
final class InJvmBlockRuns {
    static final Grid2D GRID = new Grid2D(4, 4, false, false);

    private InJvmBlockRuns() {
    }

    /** The crash of one rank's thread, standing in for a process's death. */
    private static final class Crashed extends RuntimeException {
    }

    /**
     * Runs a block loop of {@code steps} iterations on {@code size} ranks of an in-JVM cluster; the ranks of
     * {@code crashRanks} die together at iteration {@code crashAt}. Each rank's line: its digest, sum and
     * recoveries, "crashed", or "failed: " and the recovery's message.
     */
    static List<String> run(String name, Parameters p, int size, Set<Integer> crashRanks, long crashAt, long steps,
            List<RuntimeEvent> events) throws Exception {
        return run(name, p, size, crashRanks, crashAt, steps, events, InJvmCluster::group);
    }

    /** As above, each rank in the group {@code groupOf} makes of the cluster's (a wrapper that damages messages, say). */
    static List<String> run(String name, Parameters p, int size, Set<Integer> crashRanks, long crashAt, long steps,
            List<RuntimeEvent> events, BiFunction<InJvmCluster, Integer, ProcessGroup> groupOf) throws Exception {
        return run(name, rank -> p, size, crashRanks, crashAt, steps, events, groupOf);
    }

    /** As above, each rank with its own parameters (its own HOST, say). */
    static List<String> run(String name, java.util.function.IntFunction<Parameters> parametersOf, int size, Set<Integer> crashRanks,
            long crashAt, long steps, List<RuntimeEvent> events, BiFunction<InJvmCluster, Integer, ProcessGroup> groupOf) throws Exception {
        try (InJvmCluster c = InJvmCluster.open(name, size)) {
            ExecutorService pool = Executors.newFixedThreadPool(size);
            CountDownLatch together = new CountDownLatch(crashRanks.size()); // the crashing ranks die at the same moment
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    ProcessGroup g = groupOf.apply(c, rank);
                    BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(parametersOf.apply(rank)).group(g)
                            .settings(Map.of("n", TestHeatBlock.N)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start();
                    try {
                        loop.run(steps, step -> {
                            int world = step.group().worldRank(step.group().rank());
                            if (crashRanks.contains(world) && step.iteration() == crashAt) {
                                together.countDown();
                                awaitAll(together);
                                c.crash(world);
                                throw new Crashed();
                            }
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                        });
                        String d = loop.digest();
                        return d + " sum=" + loop.sum(TestHeatBlock::total) + " recoveries=" + loop.onlineRecoveries();
                    } catch (Crashed e) {
                        return "crashed";
                    } catch (RecoveryFailedException e) {
                        return "failed: " + e.getMessage();
                    } finally {
                        if (!crashRanks.contains(g.worldRank(g.rank()))) {
                            loop.close();
                        }
                    }
                }));
            }
            List<String> results = new ArrayList<>();
            for (Future<String> f : out) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            pool.shutdownNow();
            return results;
        }
    }

    private static void awaitAll(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }}
