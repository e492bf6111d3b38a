package io.ironloop.runtime.blocks;

import io.ironloop.core.Schedule;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.InJvmCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One rank dies at a seeded group operation — anywhere in a step, the partner copy, the handshake, the
 * snapshot after a recovery or the recovery itself, the leader included — and the survivors end
 * bit-identical to a failure-free run, recovering inside the job.
 */
class SeededCrashTest {
    private static final Grid2D GRID = new Grid2D(4, 4, false, false);
    private static final long STEPS = 24;
    private static String clean;

    @TempDir
    Path dir;

    private List<String> run(int victim, int crashAt, Path folder) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(3)).with(BlockKeys.DISK_EVERY, Schedule.every(2))
                .with(EngineKeys.FT_FOLDER, folder);
        try (InJvmCluster c = InJvmCluster.open("seeded-" + victim + "-" + crashAt, 4)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    var g = rank == victim ? new CrashingGroup(c.group(rank), c, new AtomicInteger(), crashAt) : c.group(rank);
                    try (BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p)
                            .group(g).start()) {
                        loop.run(STEPS, step -> {
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                        });
                        return loop.digest() + " " + loop.sum(TestHeatBlock::total);
                    } catch (RuntimeException e) {
                        if (rank == victim) { // whatever the dead member's threads met after the crash: a process would be gone
                            return "crashed";
                        }
                        throw e;
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

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24})
    void oneRankDiesAtASeededOperation_survivorsEndBitIdentical(int seed) throws Exception {
        synchronized (SeededCrashTest.class) {
            if (clean == null) {
                clean = run(-1, 0, dir.resolve("clean")).get(0);
            }
        }
        Random random = new Random(seed);
        int victim = seed % 4; // every rank, the leader included, dies in some trial
        int crashAt = 1 + random.nextInt(110); // a rank makes about 120 group operations in this run
        List<String> results = run(victim, crashAt, dir.resolve("failed"));
        for (int r = 0; r < 4; r++) {
            if (r == victim && results.get(r).equals("crashed")) {
                continue;
            }
            assertThat(results.get(r)).as("rank %d, victim %d at operation %d", r, victim, crashAt).isEqualTo(clean);
        }
    }
}
