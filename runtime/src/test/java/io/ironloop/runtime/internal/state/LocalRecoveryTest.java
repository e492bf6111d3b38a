package io.ironloop.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ironloop.core.LineInfo;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.IncompatibleRestartException;
import io.ironloop.runtime.InconsistentRecoveryException;

/**
 * The per-rank recovery line over seeded random line sets on in-JVM ranks: every rank reaches the same
 * verdict, a line is restored only where every rank and the global series have one at or before the
 * iteration the global state resumed from (the newest such), and a restart that resumed global state
 * without such a line is refused, never answered differently on different ranks.
 */
class LocalRecoveryTest {
    private static final Path FOLDER = Path.of("ft");

    /** What one rank got: the iteration, empty, or the exception's class and message. */
    private record Verdict(OptionalLong line, String refusal) {
    }

    @Test
    void randomLineSets_everyRankSameVerdict_restoredLineHeldByEveryRankAndGlobal_newestSuch() throws Exception {
        Random random = new Random(14);
        for (int round = 0; round < 60; round++) {
            int size = 1 + random.nextInt(4);
            long resumed = random.nextInt(3) == 0 ? 0 : random.nextInt(12);
            List<Set<Long>> local = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                local.add(randomSet(random));
            }
            Set<Long> global = randomSet(random);
            int other = random.nextInt(10) == 0 ? random.nextInt(size) : -1;
            int otherSizeRank = other >= 0 && !local.get(other).isEmpty() ? other : -1; // lines of a job of another size
            List<Verdict> verdicts = negotiate(round, size, local, global, resumed, otherSizeRank);

            String what = "round " + round + ": resumed " + resumed + ", global " + global + ", local " + local;
            assertThat(verdicts).as(what).hasSize(size).containsOnly(verdicts.get(0));
            Verdict v = verdicts.get(0);
            if (otherSizeRank >= 0) {
                assertThat(v.refusal()).as(what).startsWith(IncompatibleRestartException.class.getSimpleName())
                        .contains("rank " + otherSizeRank);
                continue;
            }
            TreeSet<Long> consistent = new TreeSet<>(global);
            if (resumed == 0) {
                consistent.add(0L);
            }
            consistent.removeIf(i -> i > resumed || local.stream().anyMatch(s -> !s.contains(i)));
            if (!consistent.isEmpty()) {
                assertThat(v.line()).as(what).hasValue(consistent.last());
            } else if (resumed == 0) {
                assertThat(v.line()).as(what).isEmpty();
                assertThat(v.refusal()).as(what).isNull();
            } else {
                assertThat(v.refusal()).as(what).startsWith(InconsistentRecoveryException.class.getSimpleName())
                        .contains("resumes from iteration " + resumed);
            }
        }
    }

    @Test
    void killedRankHasNoLineAtTheGlobalIteration_fallsBackToTheNewestCommonLine() throws Exception {
        List<Verdict> v = negotiate(100, 3, List.of(Set.of(9L, 10L), Set.of(9L), Set.of(9L, 10L)), Set.of(9L, 10L), 10, -1);
        assertThat(v).containsOnly(new Verdict(OptionalLong.of(9), null));
    }

    @Test
    void killedRankHasNoLineAtAll_refusedOnEveryRank_messageNamesEachRanksLines() throws Exception {
        List<Verdict> v = negotiate(101, 3, List.of(Set.of(10L), Set.of(), Set.of(10L)), Set.of(10L), 10, -1);
        assertThat(v).hasSize(3).containsOnly(v.get(0));
        assertThat(v.get(0).refusal()).contains("rank 0: [10]; rank 1: none; rank 2: [10]").contains("FRESH=true");
    }

    private static TreeSet<Long> randomSet(Random random) {
        TreeSet<Long> s = new TreeSet<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            s.add((long) random.nextInt(12));
        }
        return s;
    }

    private static List<Verdict> negotiate(int round, int size, List<Set<Long>> local, Set<Long> global, long resumed, int otherSizeRank)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try (InJvmCluster cluster = InJvmCluster.open("cut-" + round, size)) {
            List<Future<Verdict>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                futures.add(pool.submit(() -> {
                    int worldSize = rank == otherSizeRank ? size + 1 : size;
                    List<LineInfo> mine = lines("rank-" + rank, local.get(rank), rank, worldSize);
                    List<LineInfo> globals = rank == 0 ? lines("global", global, 0, size) : List.of();
                    try {
                        return new Verdict(LocalRecovery.negotiate(cluster.group(rank), mine, globals, resumed, FOLDER), null);
                    } catch (IncompatibleRestartException | InconsistentRecoveryException e) {
                        return new Verdict(OptionalLong.empty(), e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }));
            }
            List<Verdict> out = new ArrayList<>();
            for (Future<Verdict> f : futures) {
                out.add(f.get(30, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<LineInfo> lines(String series, Set<Long> iterations, int rank, int worldSize) {
        List<LineInfo> out = new ArrayList<>();
        long sequence = 0;
        for (long i : new TreeSet<>(iterations)) {
            out.add(new LineInfo(series, sequence++, i, series + "/line-" + i + ".ilc", 0, "f", true, Set.of(), "job", rank, worldSize,
                    Instant.EPOCH));
        }
        return out;
    }
}
