package io.ironloop.examples.swing;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Schedule;
import io.ironloop.examples.skeleton.SkeletonApp;
import io.ironloop.examples.skeleton.SkeletonRankMain;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.CheckpointCondition;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Partition;
import io.ironloop.runtime.skeleton.Skeleton;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Swing pattern survives a stop at every kind of step: the job (every rank, in this JVM) stops inside a step of
 * each kind — the first, a widening or narrowing of the reachable levels, a change of season (the shadow regions'
 * extent changes), a shift at the same width, the last — and is restarted on another number of ranks from its disk
 * lines; each run ends with the failure-free result line.
 */
class SwingRestartTest {
    private static final GasStorage STORAGE = GasStorage.preset("test", 0);

    @TempDir
    Path dir;

    /** The first step of each kind, by loop iteration (0 computes {@code t = T − 1}). */
    static Map<String, Long> stepKinds(GasStorage g) {
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (int t = g.steps() - 1; t >= 0; t--) {
            long iteration = g.steps() - 1 - t;
            int width = g.highest(t) - g.lowest(t);
            int before = g.highest(t + 1) - g.lowest(t + 1);
            String kind = t == g.steps() - 1 ? "first" : t == 0 ? "last" : g.inject(t) != g.inject(t + 1) ? "season change"
                    : width > before ? "wider" : width < before ? "narrower" : g.lowest(t) != g.lowest(t + 1) ? "shifted" : "same levels";
            kinds.putIfAbsent(kind, iteration);
        }
        return kinds;
    }

    /** The gas-storage kernel, stopping every rank inside the calculation of iteration {@code stopAt}. */
    private record Stopping(GasStorageSkeleton app, long stopAt) implements SkeletonApp<Domain2D> {
        @Override
        public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
            if (STORAGE.steps() - 1 - step == stopAt) {
                throw new IllegalStateException("stop");
            }
            app.calculate(read, write, possessed, step);
        }

        @Override
        public String name() {
            return app.name();
        }

        @Override
        public Box domain() {
            return app.domain();
        }

        @Override
        public int parts() {
            return app.parts();
        }

        @Override
        public Partition partition() {
            return app.partition();
        }

        @Override
        public Map<String, String> settings() {
            return app.settings();
        }

        @Override
        public double[] resultRows(Domain2D read, Box possessed) {
            return app.resultRows(read, possessed);
        }

        @Override
        public long begin() {
            return app.begin();
        }

        @Override
        public long end() {
            return app.end();
        }

        @Override
        public long next(long step) {
            return app.next(step);
        }

        @Override
        public void init(int part, Domain2D read, Domain2D write) {
            app.init(part, read, write);
        }
    }

    /** Runs on {@code ranks} ranks over {@code folder}: each rank's "stop" or result digest. */
    private List<String> run(int ranks, String job, Path folder, long stopAt, List<RuntimeEvent> events) throws Exception {
        Stopping app = new Stopping(new GasStorageSkeleton(STORAGE), stopAt);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(1)).with(EngineKeys.FT_FOLDER, folder);
        try (InJvmCluster c = InJvmCluster.open(job, ranks)) {
            ExecutorService pool = Executors.newFixedThreadPool(ranks);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (Skeleton<Domain2D> sk = SkeletonRankMain.builder(app, 0).checkpointCondition(CheckpointCondition.everySteps(1))
                            .parameters(p).group(c.group(rank)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start()) {
                        sk.run();
                        return SkeletonRankMain.digest(app, sk);
                    } catch (IllegalStateException e) {
                        return e.getMessage();
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
    void stoppedAtEveryKindOfStep_restartedOnAnotherNumberOfRanks_sameResultLine() throws Exception {
        String expected = SkeletonRankMain.reference(new GasStorageSkeleton(STORAGE));
        Map<String, Long> kinds = stepKinds(STORAGE);
        assertThat(kinds.keySet()).contains("first", "last", "season change", "wider", "narrower");
        int[][] ranks = {{3, 2}, {2, 4}, {4, 1}, {1, 3}};
        int i = 0;
        for (Map.Entry<String, Long> kind : kinds.entrySet()) {
            int[] r = ranks[i % ranks.length];
            Path folder = dir.resolve("k" + i);
            assertThat(run(r[0], "swing-stop-" + i, folder, kind.getValue(), new ArrayList<>())).as(kind.getKey()).containsOnly("stop");
            List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
            List<String> resumed = run(r[1], "swing-resume-" + i, folder, -1, events);
            assertThat(resumed).as("%s step (iteration %d), %d → %d ranks", kind.getKey(), kind.getValue(), r[0], r[1]).containsOnly(expected);
            if (kind.getValue() > 0) {
                assertThat(events).as(kind.getKey()).anyMatch(e -> e instanceof RuntimeEvent.Restored);
            }
            i++;
        }
    }
}
