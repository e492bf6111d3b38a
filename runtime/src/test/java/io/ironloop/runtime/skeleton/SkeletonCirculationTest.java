package io.ironloop.runtime.skeleton;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
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

/**
 * Data circulation: an all-pairs interaction where each block of bodies (position, accumulated force) travels round
 * the parts and meets every part's own bodies, which re-execution rebuilds (light: a function of the part). The
 * result equals a plain double loop in the same order, on any number of ranks and after a restart on another one.
 */
class SkeletonCirculationTest {
    private static final int PARTS = 4;
    private static final int M = 5;
    private static final Box DOMAIN = Box.ofExtents(PARTS * M, 2); // rows: bodies; columns: position, force

    @TempDir
    Path dir;

    private static double position(int body) {
        return Math.sin(body * 1.7) * 10;
    }

    private static double pull(double from, double on) {
        double d = from - on;
        return d / (1 + d * d);
    }

    /** Block of bodies part {@code part} holds at {@code step}: it arrived from part − 1 at every step. */
    private static final Partition TRAVELLING = new Partition() {
        @Override
        public Box possessed(int part, int parts, long step) {
            int block = Math.floorMod(part - (int) step, parts);
            return Box.of(new int[] {block * M, 0}, new int[] {(block + 1) * M, 2});
        }

        @Override
        public Box needed(int part, int parts, long step) {
            return possessed(part, parts, step);
        }
    };

    private static final class AllPairs implements Kernel<Domain2D> {
        private final long stopAt;

        AllPairs(long stopAt) {
            this.stopAt = stopAt;
        }

        @Override
        public long begin() {
            return 0;
        }

        @Override
        public long end() {
            return PARTS;
        }

        @Override
        public long next(long step) {
            return step + 1;
        }

        @Override
        public void init(int part, Domain2D read, Domain2D write) {
            for (int i = read.box().lo(0); i < read.box().hi(0); i++) {
                read.set(i, 0, position(i));
            }
        }

        @Override
        public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
            if (step == stopAt) {
                throw new IllegalStateException("stop");
            }
            int part = Math.floorMod(possessed.lo(0) / M + (int) step, PARTS); // the part this runs for
            for (int i = possessed.lo(0); i < possessed.hi(0); i++) {
                double f = read.get(i, 1);
                for (int k = part * M; k < (part + 1) * M; k++) { // the part's own bodies: rebuilt, never checkpointed
                    f += k == i ? 0 : pull(position(k), read.get(i, 0));
                }
                write.set(i, 0, read.get(i, 0));
                write.set(i, 1, f);
            }
        }
    }

    private static double[] reference() {
        double[] f = new double[PARTS * M];
        for (int i = 0; i < f.length; i++) {
            int block = i / M;
            for (int s = 0; s < PARTS; s++) {
                int part = (block + s) % PARTS;
                for (int k = part * M; k < (part + 1) * M; k++) {
                    f[i] += k == i ? 0 : pull(position(k), position(i));
                }
            }
        }
        return f;
    }

    /** Runs on {@code ranks} ranks over {@code folder}; returns each rank's outcome and fills {@code forces}. */
    private List<String> run(int ranks, String job, Path folder, long stopAt, double[] forces, List<RuntimeEvent> events) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(1)).with(EngineKeys.FT_FOLDER, folder);
        try (InJvmCluster c = InJvmCluster.open(job, ranks)) {
            ExecutorService pool = Executors.newFixedThreadPool(ranks);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (Skeleton<Domain2D> sk = Skeleton.builder(DOMAIN, PARTS, TRAVELLING, new AllPairs(stopAt))
                            .communication(RoutingPlan.Kind.CIRCULATION).checkpointInput(false)
                            .checkpointCondition(CheckpointCondition.everySteps(1)).parameters(p).group(c.group(rank))
                            .settings(Map.of("bodies", PARTS * M)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start()) {
                        sk.run();
                        for (Domain2D d : sk.domains().values()) {
                            for (int i = d.box().lo(0); i < d.box().hi(0); i++) {
                                forces[i] = d.get(i, 1);
                            }
                        }
                        return "done " + sk.digest();
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

    private static void assertForces(double[] forces) {
        double[] expected = reference();
        for (int i = 0; i < expected.length; i++) {
            assertThat(Double.doubleToRawLongBits(forces[i])).as("body %d", i).isEqualTo(Double.doubleToRawLongBits(expected[i]));
        }
        assertThat(java.util.Arrays.stream(expected).map(Math::abs).max().orElse(0)).as("the bodies pull each other").isGreaterThan(0.1);
    }

    @Test
    void circulatingBlocks_anyNumberOfRanks_bitIdenticalToTheDoubleLoop() throws Exception {
        for (int ranks : new int[] {1, 3}) {
            double[] forces = new double[PARTS * M];
            List<String> results = run(ranks, "circ-" + ranks, dir.resolve("r" + ranks), -1, forces, new ArrayList<>());
            assertThat(results).allMatch(s -> s.startsWith("done ")).allMatch(s -> s.equals(results.get(0)));
            assertForces(forces);
        }
    }

    @Test
    void stoppedMidCirculation_restartOnAnotherNumberOfRanks_bitIdentical() throws Exception {
        Path folder = dir.resolve("restart");
        assertThat(run(4, "circ-a", folder, 2, new double[PARTS * M], new ArrayList<>())).containsOnly("stop");
        double[] forces = new double[PARTS * M];
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        assertThat(run(2, "circ-b", folder, -1, forces, events)).allMatch(s -> s.startsWith("done "));
        assertThat(events).contains(new RuntimeEvent.Restored(RuntimeEvent.StateKind.BLOCKS, 2));
        assertForces(forces);
    }
}
