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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skeletons on in-JVM groups (one thread per rank): the result equals a plain sequential loop bit for bit on any
 * number of ranks, after a rank's crash (recovered inside the job), after a stop and a restart on fewer or more
 * ranks, with partitions that change every step; misuse is refused on every rank.
 */
class SkeletonInJvmTest {
    private static final int PARTS = 4;
    private static final long STEPS = 24;

    @TempDir
    Path dir;

    /** What a rank does: builds its kernel (given its world rank and the cluster) and runs; returns a line. */
    private record Run(int ranks, String job, Path folder, Partition partition, boolean input,
            Function<Integer, LongConsumer> hooks, List<RuntimeEvent> events) {
    }

    private static final class Stop extends RuntimeException {
    }

    private static final class Crashed extends RuntimeException {
    }

    private Run run(int ranks, Path folder) {
        return new Run(ranks, "skel", folder, Partition.slabs(HeatKernel.DOMAIN, 0, 1), true, r -> s -> { },
                Collections.synchronizedList(new ArrayList<>()));
    }

    /** Runs every rank; returns each rank's outcome ("done", "stopped", "crashed" or the exception) and fills {@code field}. */
    private List<String> execute(Run run, double[][] field, InJvmClusterHolder holder) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(1)).with(EngineKeys.FT_FOLDER, run.folder());
        try (InJvmCluster c = InJvmCluster.open(run.job(), run.ranks())) {
            holder.cluster = c;
            ExecutorService pool = Executors.newFixedThreadPool(run.ranks());
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < run.ranks(); r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    Skeleton<Domain2D> sk = Skeleton.builder(HeatKernel.DOMAIN, PARTS, run.partition(),
                            new HeatKernel(STEPS, run.hooks().apply(rank))).checkpointInput(run.input())
                            .checkpointCondition(CheckpointCondition.everySteps(4)).parameters(p).group(c.group(rank))
                            .settings(Map.of("n", HeatKernel.N)).subscribe(e -> {
                                if (rank == 0) {
                                    run.events().add(e);
                                }
                            }).start();
                    try {
                        sk.run();
                        String digest = sk.digest();
                        for (Map.Entry<Integer, Domain2D> e : sk.domains().entrySet()) {
                            Box b = run.partition().possessed(e.getKey(), PARTS, STEPS - 1);
                            for (int y = b.lo(0); y < b.hi(0); y++) {
                                for (int x = b.lo(1); x < b.hi(1); x++) {
                                    field[y][x] = e.getValue().get(y, x);
                                }
                            }
                        }
                        sk.close();
                        return "done " + digest;
                    } catch (Stop e) {
                        sk.close();
                        return "stopped";
                    } catch (Crashed e) {
                        return "crashed";
                    } catch (RuntimeException e) {
                        sk.close();
                        return e.getClass().getSimpleName() + ": " + e.getMessage();
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

    private static final class InJvmClusterHolder {
        volatile InJvmCluster cluster;
    }

    private static void assertField(double[][] field) {
        double[][] ref = HeatKernel.reference(STEPS);
        for (int y = 1; y <= HeatKernel.N; y++) {
            for (int x = 1; x <= HeatKernel.N; x++) {
                assertThat(Double.doubleToRawLongBits(field[y][x])).as("cell (%d, %d)", y, x).isEqualTo(Double.doubleToRawLongBits(ref[y][x]));
            }
        }
        assertThat(ref[HeatKernel.N][HeatKernel.N / 2]).as("the heat has spread").isGreaterThan(0.1);
    }

    private static double[][] newField() {
        return new double[HeatKernel.N + 2][HeatKernel.N + 2];
    }

    @Test
    void anyNumberOfRanks_bitIdenticalToThePlainLoop() throws Exception {
        String digest = null;
        for (int ranks : new int[] {1, 3}) {
            double[][] field = newField();
            List<String> results = execute(run(ranks, dir.resolve("r" + ranks)), field, new InJvmClusterHolder());
            assertThat(results).allMatch(s -> s.equals(results.get(0))).allMatch(s -> s.startsWith("done "));
            assertField(field);
            digest = digest == null ? results.get(0) : digest;
            assertThat(results.get(0)).isEqualTo(digest);
        }
    }

    @Test
    void crashOfARank_recoveredInsideTheJobByTheRecoveryComponent_bitIdentical() throws Exception {
        InJvmClusterHolder holder = new InJvmClusterHolder();
        Run base = run(3, dir.resolve("crash"));
        Run crashing = new Run(3, "skel-crash", base.folder(), base.partition(), true, rank -> step -> {
            if (rank == 1 && step == 10) {
                holder.cluster.crash(1);
                throw new Crashed();
            }
        }, base.events());
        double[][] field = newField();
        List<String> results = execute(crashing, field, holder);
        assertThat(results.get(1)).isEqualTo("crashed");
        assertThat(List.of(results.get(0), results.get(2))).allMatch(s -> s.startsWith("done "));
        assertField(field);
        assertThat(base.events()).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).iteration()).isEqualTo(8));
    }

    @Test
    void stoppedJob_restartsOnFewerThenMoreRanks_fromItsCheckpoints_bitIdentical() throws Exception {
        Path folder = dir.resolve("resplit");
        Run first = new Run(4, "skel-a", folder, Partition.slabs(HeatKernel.DOMAIN, 0, 1), false, r -> step -> {
            if (step == 9) {
                throw new Stop();
            }
        }, Collections.synchronizedList(new ArrayList<>()));
        assertThat(execute(first, newField(), new InJvmClusterHolder())).containsOnly("stopped");
        Run second = new Run(2, "skel-b", folder, first.partition(), false, r -> step -> {
            if (step == 17) {
                throw new Stop();
            }
        }, Collections.synchronizedList(new ArrayList<>()));
        assertThat(execute(second, newField(), new InJvmClusterHolder())).containsOnly("stopped");
        assertThat(second.events()).contains(new RuntimeEvent.Restored(RuntimeEvent.StateKind.BLOCKS, 8));
        Run third = new Run(3, "skel-c", folder, first.partition(), false, r -> step -> { }, Collections.synchronizedList(new ArrayList<>()));
        double[][] field = newField();
        List<String> results = execute(third, field, new InJvmClusterHolder());
        assertThat(results).allMatch(s -> s.startsWith("done "));
        assertThat(third.events()).contains(new RuntimeEvent.Restored(RuntimeEvent.StateKind.BLOCKS, 16));
        assertField(field);
    }

    /** Slab boundaries that move every step (the Swing pattern): the domains resize, the plan changes. */
    private static Partition moving() {
        return new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                int n = HeatKernel.N + 2;
                int shift = (int) (step % 3) - 1;
                int lo = part == 0 ? 0 : part * n / parts + shift * part;
                int hi = part == parts - 1 ? n : (part + 1) * n / parts + shift * (part + 1);
                return Box.of(new int[] {lo, 0}, new int[] {hi, n});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step).grow(0, 1, HeatKernel.DOMAIN);
            }
        };
    }

    @Test
    void subdomainsThatChangeEveryStep_surviveACrashAndARestart_bitIdentical() throws Exception {
        Path folder = dir.resolve("moving");
        Run first = new Run(2, "skel-m1", folder, moving(), false, r -> step -> {
            if (step == 14) {
                throw new Stop();
            }
        }, Collections.synchronizedList(new ArrayList<>()));
        assertThat(execute(first, newField(), new InJvmClusterHolder())).containsOnly("stopped");
        InJvmClusterHolder holder = new InJvmClusterHolder();
        Run second = new Run(3, "skel-m2", folder, moving(), false, rank -> step -> {
            if (rank == 2 && step == 19) {
                holder.cluster.crash(2);
                throw new Crashed();
            }
        }, Collections.synchronizedList(new ArrayList<>()));
        double[][] field = newField();
        List<String> results = execute(second, field, holder);
        assertThat(results).containsExactly(results.get(0), results.get(0), "crashed");
        assertThat(results.get(0)).startsWith("done ");
        assertThat(second.events()).contains(new RuntimeEvent.Restored(RuntimeEvent.StateKind.BLOCKS, 12));
        assertField(field);
    }

    @Test
    void unregisteringTheInputDomain_halvesTheCheckpoint() throws Exception {
        long[] bytes = new long[2];
        for (int i = 0; i < 2; i++) {
            Run r = new Run(1, "skel-size", dir.resolve("size" + i), Partition.slabs(HeatKernel.DOMAIN, 0, 1), i == 0, rank -> step -> { },
                    Collections.synchronizedList(new ArrayList<>()));
            execute(r, newField(), new InJvmClusterHolder());
            bytes[i] = r.events().stream().filter(e -> e instanceof RuntimeEvent.Snapshotted).mapToLong(e -> ((RuntimeEvent.Snapshotted) e)
                    .bytes()).max().orElseThrow();
        }
        double ratio = (double) bytes[1] / bytes[0];
        assertThat(ratio).as("%d bytes without the input domain, %d with it", bytes[1], bytes[0]).isLessThanOrEqualTo(0.51)
                .isGreaterThan(0.45);
    }

    @Test
    void coldParts_areZeroElidedOnDisk_likeAPlainArray() throws Exception {
        // stopped in step 1: the line on disk is the start's, where only the north part (3) holds non-zero values
        Run r = new Run(1, "skel-cold", dir.resolve("cold"), Partition.slabs(HeatKernel.DOMAIN, 0, 1), false, rank -> step -> {
            if (step == 1) {
                throw new Stop();
            }
        }, Collections.synchronizedList(new ArrayList<>()));
        assertThat(execute(r, newField(), new InJvmClusterHolder())).containsExactly("stopped");
        Path series = r.folder().resolve("rank-00000");
        Path line;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(series)) {
            line = files.filter(f -> f.getFileName().toString().endsWith(".ilc")).sorted().findFirst().orElseThrow();
        }
        Map<String, Boolean> allZero = new java.util.TreeMap<>();
        try (java.nio.channels.SeekableByteChannel ch = java.nio.file.Files.newByteChannel(line)) {
            for (io.ironloop.format.EntryDescriptor e : io.ironloop.format.CheckpointReader.open(ch, line.toString(),
                    io.ironloop.format.ChunkResolver.NONE).manifest().entries()) {
                if (e.name().startsWith("block-")) {
                    allZero.put(e.name(), e.chunks().stream().allMatch(io.ironloop.format.ChunkDescriptor::zero));
                }
            }
        }
        assertThat(allZero).as("parts whose chunks were all zero-elided, in %s", line)
                .isEqualTo(Map.of("block-0", true, "block-1", true, "block-2", true, "block-3", false));
    }

    @Test
    void communicationConditionThatDiffersBetweenRanks_refusedOnEveryRank_noDeadlock() throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster c = InJvmCluster.open("skel-cond", 2)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    HeatKernel odd = new HeatKernel(STEPS, s -> { }, step -> step != 5 || rank == 0);
                    try (Skeleton<Domain2D> sk = Skeleton.builder(HeatKernel.DOMAIN, PARTS, Partition.slabs(HeatKernel.DOMAIN, 0, 1), odd)
                            .parameters(p).group(c.group(rank)).start()) {
                        sk.run();
                        return "done";
                    } catch (IllegalStateException e) {
                        return e.getMessage();
                    }
                }));
            }
            for (Future<String> f : out) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo("the kernel's communication condition at step 5 is true on world ranks [0]"
                        + " and false on [1]: it must be the same on every rank (a function of the step only)");
            }
            pool.shutdownNow();
        }
    }
}
