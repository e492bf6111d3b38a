package io.ironloop.runtime.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Schedule;
import io.ironloop.group.InJvmCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that makes a {@link StepContext#sum} (a residual, say) carries the handshake of the snapshot in flight: once
 * every rank's copy is done by the sum, the loop commits the snapshot at the end of the iteration without an allreduce
 * of its own. Results do not change.
 */
class PiggybackedHandshakeTest {
    private static final Grid2D GRID = new Grid2D(4, 4, false, false);
    private static final long STEPS = 10;

    @TempDir
    Path dir;

    /** One rank's outcome: its digest and the handshakes that needed an allreduce of their own. */
    private record Outcome(String digest, long committed, int handshakeAllreduces) {
    }

    @Test
    void stepWithASum_handshakesRideOnIt_fewerAllreduces_sameResult() throws Exception {
        List<Outcome> plain = run(false);
        List<Outcome> summing = run(true);

        for (int r = 0; r < 4; r++) {
            assertThat(summing.get(r).digest()).as("rank %d: a sum changes no state", r).isEqualTo(plain.get(0).digest());
            assertThat(summing.get(r).committed()).as("a snapshot every iteration and at start").isEqualTo(STEPS + 1);
            assertThat(plain.get(r).handshakeAllreduces()).as("without a sum, every handshake is an allreduce")
                    .isEqualTo((int) STEPS + 1);
            assertThat(summing.get(r).handshakeAllreduces()).as("with a sum after the copies are done, most ride on it")
                    .isLessThan((int) STEPS / 2);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Outcome> run(boolean sum) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(1))
                .with(BlockKeys.DISK_EVERY, Schedule.never()).with(EngineKeys.FT_FOLDER, dir.resolve("sum-" + sum));
        try (InJvmCluster c = InJvmCluster.open("piggyback-" + sum, 4)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Outcome>> out = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    CrashingGroup counting = new CrashingGroup(c.group(rank), c, new AtomicInteger(), Integer.MAX_VALUE);
                    try (BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p)
                            .group(counting).start()) {
                        loop.run(STEPS, step -> {
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                            if (sum) {
                                pause(); // computing on: the tiny copies are done long before the residual's sum
                                step.sum(TestHeatBlock::total);
                            }
                        });
                        int allreduces = counting.handshakeAllreduces();
                        return new Outcome(loop.digest(), loop.snapshotsCommitted(), allreduces);
                    }
                }));
            }
            List<Outcome> results = new ArrayList<>();
            for (Future<Outcome> f : out) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            pool.shutdownNow();
            return results;
        }
    }
}
