package io.ironloop.runtime.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SNAPSHOT_EVERY: adaptive} read from a real parameter file: two ranks whose blocks take a chosen
 * time to save (the snapshot's cost C: its capture blocks the loop); the wall time between snapshots follows
 * √(2·C·MTBF) when C changes mid-run, and when MTBF does.
 */
class AdaptiveScheduleTest {
    private static final Grid2D GRID = new Grid2D(2, 1, false, false);
    private static final long STEP_MILLIS = 3;

    @TempDir
    Path dir;

    /** A block whose save sleeps for as long as the test says: the snapshot's cost. */
    private static final class SlowSaveBlock implements Block {
        private final int id;
        private final AtomicLong saveMillis;
        private long value;

        SlowSaveBlock(int id, AtomicLong saveMillis) {
            this.id = id;
            this.saveMillis = saveMillis;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public void save(StateSink sink) {
            sleep(saveMillis.get());
            sink.putLong(value);
        }

        @Override
        public void restore(StateSource source) {
            value = source.getLong();
        }
    }

    /**
     * A snapshot committed on rank 0: when it was captured (System.nanoTime) and what it cost the loop, as the loop
     * reported it: its capture plus the wait for its handshake.
     */
    private record Snap(long iteration, long atNanos, Duration cost) {
    }

    /**
     * Runs two ranks for {@code steps} iterations of {@code STEP_MILLIS} under the given parameter file; before
     * iteration i the blocks' save takes {@code saveMillisAt.applyAsLong(i)} ms. Returns rank 0's snapshots.
     */
    private List<Snap> run(String json, long steps, LongUnaryOperator saveMillisAt) throws Exception {
        Path file = dir.resolve("params-" + System.nanoTime() + ".json");
        Files.writeString(file, json);
        Parameters p = Parameters.load(BlockLoop.TABLE, file, Map.of(), Map.of());
        List<Snap> snaps = Collections.synchronizedList(new ArrayList<>());
        Map<Long, Snap> captured = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicLong saveMillis = new AtomicLong(saveMillisAt.applyAsLong(0));
        try (InJvmCluster c = InJvmCluster.open("adaptive-" + System.nanoTime(), 2)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<?>> out = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (BlockLoop<SlowSaveBlock> loop = BlockLoop.builder(GRID, id -> new SlowSaveBlock(id, saveMillis)).parameters(p)
                            .group(c.group(rank)).subscribe(e -> {
                                if (rank != 0) {
                                    return;
                                }
                                if (e instanceof RuntimeEvent.Snapshotted s) {
                                    captured.put(s.iteration(), new Snap(s.iteration(), System.nanoTime(), s.blocking()));
                                } else if (e instanceof RuntimeEvent.Handshake h && h.committed() && captured.containsKey(h.iteration())) {
                                    Snap s = captured.get(h.iteration());
                                    snaps.add(new Snap(s.iteration(), s.atNanos(), s.cost().plus(h.waited())));
                                }
                            }).start()) {
                        loop.run(steps, step -> {
                            if (rank == 0) {
                                saveMillis.set(saveMillisAt.applyAsLong(step.iteration()));
                            }
                            step.group().barrier();
                            sleep(STEP_MILLIS);
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : out) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }
        return List.copyOf(snaps);
    }

    /**
     * For each gap between two snapshots — leaving out the first (the JIT is still warming up) and the one to the
     * last snapshot (the loop's end forces it) — the gap in wall seconds and the Young/Daly interval the loop
     * should have aimed at when it took the first of the two: √(2·C·MTBF) with C the mean reported cost of the
     * last five snapshots up to it (the loop's own window).
     */
    private static List<double[]> gapsAndTargets(List<Snap> snaps, double mtbfSeconds) {
        List<double[]> out = new ArrayList<>();
        for (int i = 2; i < snaps.size() - 1; i++) {
            List<Snap> window = snaps.subList(Math.max(0, i - 5), i);
            double c = window.stream().mapToDouble(s -> s.cost().toNanos() / 1e9).average().orElseThrow();
            double gap = (snaps.get(i).atNanos() - snaps.get(i - 1).atNanos()) / 1e9;
            out.add(new double[] {gap, Math.sqrt(2 * c * mtbfSeconds), snaps.get(i - 1).iteration()});
        }
        return out;
    }

    private static double median(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        return v.get(v.size() / 2);
    }

    private static String show(List<double[]> gaps) {
        return gaps.stream().map(g -> String.format("from %d: %.3f s (target %.3f s)", (long) g[2], g[0], g[1])).toList().toString();
    }

    @Test
    void adaptiveSnapshots_intervalFollowsAChangeOfTheSnapshotCost() throws Exception {
        long switchAt = 500;
        // C about 3 ms, then 33 ms: the target goes from sqrt(2 * 0.003 * 5) = 0.17 s to sqrt(2 * 0.033 * 5) = 0.57 s
        List<double[]> gaps = gapsAndTargets(run("{\"SNAPSHOT_EVERY\": \"adaptive\", \"MTBF\": \"5s\", \"DISK_EVERY\": \"never\"}",
                1300, i -> i < switchAt ? 2 : 32), 5);
        List<double[]> cheap = gaps.stream().filter(g -> g[2] < switchAt).toList();
        List<double[]> dear = gaps.stream().filter(g -> g[2] >= switchAt).toList();
        assertThat(cheap).as("gaps %s", show(gaps)).hasSizeGreaterThanOrEqualTo(2);
        assertThat(dear).as("gaps %s", show(gaps)).hasSizeGreaterThanOrEqualTo(2);
        // sqrt(11) = 3.3 in theory; a loaded machine inflates the cheap cost most (scheduling noise of a few ms), so the
        // bound is loose — a schedule that ignored C would give 1
        assertThat(median(targets(dear)) / median(targets(cheap))).as("the target follows C: %s", show(gaps)).isGreaterThan(1.5);
        assertThat(median(walls(dear)) / median(walls(cheap))).as("so do the gaps: %s", show(gaps)).isGreaterThan(1.5);
        assertThat(median(gaps.stream().map(g -> g[0] / g[1]).toList())).as("gap / target: %s", show(gaps)).isBetween(0.5, 2.0);
    }

    private static List<Double> walls(List<double[]> gaps) {
        return gaps.stream().map(g -> g[0]).toList();
    }

    private static List<Double> targets(List<double[]> gaps) {
        return gaps.stream().map(g -> g[1]).toList();
    }

    @Test
    void adaptiveSnapshots_intervalFollowsTheMtbf() throws Exception {
        // the same cost under MTBF 3 s and 27 s: gaps about sqrt(9) = 3 times longer (compared per unit of sqrt(2 C))
        List<double[]> shortMtbf = gapsAndTargets(run("{\"SNAPSHOT_EVERY\": \"adaptive\", \"MTBF\": \"3s\", \"DISK_EVERY\": 0}", 450,
                i -> 8), 1);
        List<double[]> longMtbf = gapsAndTargets(run("{\"SNAPSHOT_EVERY\": \"adaptive\", \"MTBF\": \"27s\", \"DISK_EVERY\": 0}", 900,
                i -> 8), 1);
        assertThat(shortMtbf).as("gaps %s", show(shortMtbf)).hasSizeGreaterThanOrEqualTo(2);
        assertThat(longMtbf).as("gaps %s", show(longMtbf)).hasSizeGreaterThanOrEqualTo(1);
        double perRootCostShort = median(shortMtbf.stream().map(g -> g[0] / g[1]).toList());
        double perRootCostLong = median(longMtbf.stream().map(g -> g[0] / g[1]).toList());
        assertThat(perRootCostLong / perRootCostShort).as("MTBF 3 s: %s; 27 s: %s", show(shortMtbf), show(longMtbf)).isBetween(1.8, 5.0);
    }

    @Test
    void timeSchedule_snapshotsEveryTOfWallTime() throws Exception {
        List<double[]> gaps = gapsAndTargets(run("{\"SNAPSHOT_EVERY\": \"150ms\", \"DISK_EVERY\": \"never\"}", 250, i -> 1), 1);
        assertThat(gaps).hasSizeGreaterThanOrEqualTo(2);
        assertThat(median(gaps.stream().map(g -> g[0]).toList())).as("gaps %s", show(gaps)).isBetween(0.09, 0.3);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
