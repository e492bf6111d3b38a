package io.ironloop.runtime.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Schedule;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handshake is an allreduce, not an agreement, so a failure can split its verdict: some survivors commit the
 * snapshot, another meets the failure instead. The failure path's one agreement must give every survivor the same
 * committed snapshot — the newer one, which the survivor without the verdict holds complete — and the run must end
 * bit-identical to a failure-free one.
 */
class SplitVerdictTest {
    private static final Grid2D GRID = new Grid2D(4, 4, false, false);
    private static final long STEPS = 12;
    /** Snapshots at 0 (start), 3, 6, …: the third handshake settles the snapshot of iteration 6. */
    private static final int LOST_HANDSHAKE = 3;
    private static final long LOST_SNAPSHOT = 6;

    @TempDir
    Path dir;

    @Test
    void verdictLostOnOneSurvivor_othersCommitted_survivorCommitsItToo_allRecoverFromIt_bitIdentical() throws Exception {
        String clean = run(false, new CopyOnWriteArrayList<>()).get(0);
        List<RuntimeEvent.RecoveredOnline> recoveries = new CopyOnWriteArrayList<>();
        List<String> results = run(true, recoveries);

        assertThat(results.get(3)).isEqualTo("crashed");
        for (int r = 0; r < 3; r++) {
            assertThat(results.get(r)).as("survivor %d", r).isEqualTo(clean);
        }
        assertThat(recoveries).as("one recovery on each survivor, all from the snapshot rank 2 had not seen committed")
                .hasSize(3).allSatisfy(e -> {
                    assertThat(e.iteration()).isEqualTo(LOST_SNAPSHOT);
                    assertThat(e.source()).isEqualTo(RuntimeEvent.RecoverySource.MEMORY);
                    assertThat(e.lostWorldRanks()).containsExactly(3);
                });
    }

    private List<String> run(boolean split, List<RuntimeEvent.RecoveredOnline> recoveries) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(3))
                .with(BlockKeys.DISK_EVERY, Schedule.never()).with(EngineKeys.FT_FOLDER, dir.resolve(split ? "split" : "clean"));
        try (InJvmCluster c = InJvmCluster.open("split-verdict-" + split, 4)) {
            Map<Integer, ProcessGroup> groups = new ConcurrentHashMap<>();
            CrashingGroup victim = new CrashingGroup(c.group(3), c, new AtomicInteger(), Integer.MAX_VALUE);
            groups.put(3, split ? victim : c.group(3));
            groups.put(2, split ? CrashingGroup.losingVerdict(c.group(2), c, LOST_HANDSHAKE, victim::die) : c.group(2));
            groups.put(0, c.group(0));
            groups.put(1, c.group(1));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p)
                            .group(groups.get(rank)).subscribe(e -> {
                                if (e instanceof RuntimeEvent.RecoveredOnline o) {
                                    recoveries.add(o);
                                }
                            }).start()) {
                        loop.run(STEPS, step -> {
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                        });
                        return loop.digest() + " " + loop.sum(TestHeatBlock::total);
                    } catch (RuntimeException e) {
                        if (split && rank == 3) { // whatever the dead member's thread met after the crash: a process would be gone
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
}
