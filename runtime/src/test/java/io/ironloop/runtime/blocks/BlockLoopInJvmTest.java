package io.ironloop.runtime.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockLoopInJvmTest {
    private static final Grid2D GRID = new Grid2D(4, 4, false, false);
    private static final long STEPS = 30;

    @TempDir
    Path dir;

    /** The crash of one rank's thread, standing in for a process's death. */
    private static final class Crashed extends RuntimeException {
    }

    private List<String> run(int size, int spares, int crashRank, long crashAt, Path folder, List<RuntimeEvent> events) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, 4L).with(BlockKeys.DISK_EVERY, 2L)
                .with(BlockKeys.SPARES, (long) spares).with(io.ironloop.core.EngineKeys.FT_FOLDER, folder);
        try (InJvmCluster c = InJvmCluster.open("blocks-" + crashRank + "-" + spares, size)) {
            ExecutorService pool = Executors.newFixedThreadPool(size);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    ProcessGroup g = c.group(rank);
                    BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p).group(g)
                            .settings(Map.of("n", TestHeatBlock.N)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start();
                    try {
                        loop.run(STEPS, step -> {
                            if (step.group().worldRank(step.group().rank()) == crashRank && step.iteration() == crashAt) {
                                c.crash(crashRank);
                                throw new Crashed();
                            }
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                        });
                        String d = loop.digest();
                        return d + " sum=" + loop.sum(TestHeatBlock::total) + " recoveries=" + loop.onlineRecoveries();
                    } catch (Crashed e) {
                        return "crashed";
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                        throw e;
                    } finally {
                        if (g.worldRank(g.rank()) != crashRank) {
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

    @Test
    void crashOfOneRank_recoveredOnline_bitIdentical() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(4, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        assertThat(clean).allMatch(s -> s.equals(clean.get(0)));
        List<String> failed = run(4, 0, 2, 7, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, expected, "crashed", expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).iteration()).isEqualTo(4));
    }

    @Test
    void crashWithSpare_spareAdopts_bitIdentical() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(3, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        List<String> failed = run(4, 1, 1, 9, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, "crashed", expected, expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).sparesUsed()).isEqualTo(1));
    }
}
