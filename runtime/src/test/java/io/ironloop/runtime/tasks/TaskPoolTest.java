package io.ironloop.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.runtime.tasks.RoundReport.Transfer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class TaskPoolTest {
    private static final long SEED = 0x1D0C_2019L;
    private static final int MAX_TASKS = 40;

    /** What one rank did in one round: the report and, independently, the tasks the work callback saw. */
    private record Ran(RoundReport report, List<Integer> seen) {
    }

    static Stream<Arguments> schedules() {
        List<Arguments> out = new ArrayList<>();
        for (WorkloadScheduler kind : WorkloadScheduler.values()) {
            for (int ranks = 1; ranks <= 4; ranks++) {
                out.add(Arguments.of(kind, ranks, false));
                out.add(Arguments.of(kind, ranks, true));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1} ranks, alreadyDone sets: {2}")
    @MethodSource("schedules")
    void runRound_taskCounts0To40_everyRemainingTaskRunsExactlyOnce(WorkloadScheduler kind, int ranks, boolean withDone) throws Exception {
        try (InJvmCluster c = InJvmCluster.open("matrix-" + kind + "-" + ranks, ranks)) {
            List<TaskPool> pools = pools(c, kind, r -> TaskPoolListener.NONE);
            try {
                List<List<Ran>> perRank = RankThreads.run(ranks, r -> {
                    Random speed = new Random(SEED + r);
                    List<Ran> out = new ArrayList<>();
                    for (int n = 0; n <= MAX_TASKS; n++) {
                        List<Integer> seen = new ArrayList<>();
                        RoundReport report = pools.get(r).runRound(n, n, doneSet(withDone, n), task -> {
                            seen.add(task);
                            if (speed.nextInt(6) == 0) {
                                RankThreads.sleep(1);
                            }
                        });
                        out.add(new Ran(report, seen));
                    }
                    return out;
                });
                for (int n = 0; n <= MAX_TASKS; n++) {
                    int round = n;
                    List<RoundReport> reports = perRank.stream().map(l -> l.get(round).report()).toList();
                    perRank.forEach(l -> assertThat(l.get(round).report().executed()).isEqualTo(l.get(round).seen()));
                    assertRoundComplete(kind, reports, n, doneSet(withDone, n));
                }
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @Test
    void runRound_ctwsWithOneSlowRank_stealsFromItAndFinishesSoonerThanDs() throws Exception {
        long ds = Long.MAX_VALUE;
        long ctws = Long.MAX_VALUE;
        SlowRound stealing = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            ds = Math.min(ds, slowRound(WorkloadScheduler.DS).nanos);
            SlowRound s = slowRound(WorkloadScheduler.CTWS);
            if (s.nanos < ctws) {
                ctws = s.nanos;
                stealing = s;
            }
        }
        assertThat(ctws).as("CTWS %d ms vs DS %d ms", ctws / 1_000_000, ds / 1_000_000).isLessThan(ds * 6 / 10);

        List<RoundReport> reports = stealing.reports;
        assertRoundComplete(WorkloadScheduler.CTWS, reports, MAX_TASKS, new BitSet());
        assertThat(reports.get(1).givenAwayCount()).isPositive();
        assertThat(reports.get(1).executed()).hasSizeLessThan(10);
        int stolenFromSlow = reports.stream().flatMap(r -> r.stolen().stream()).filter(t -> t.peer() == 1).mapToInt(t -> t.tasks().size()).sum();
        assertThat(stolenFromSlow).isEqualTo(reports.get(1).givenAwayCount());
        for (int r = 0; r < 4; r++) {
            RoundReport report = reports.get(r);
            List<String> expected = new ArrayList<>();
            expected.add("started 1 assigned=10 skipped=0");
            report.stolen().forEach(t -> expected.add("stolen 1 from=" + t.peer() + " " + t.tasks()));
            report.givenAway().forEach(t -> expected.add("given 1 to=" + t.peer() + " " + t.tasks()));
            expected.add("finished 1 " + report);
            // (hand-over events of the warm-up round may trail it: they come from service threads)
            List<String> timed = stealing.events.get(r).events.stream().filter(e -> e.split(" ")[1].equals("1")).toList();
            assertThat(timed).as("events of rank %d", r).containsExactlyInAnyOrderElementsOf(expected);
            List<String> applicationThread = timed.stream().filter(e -> !e.startsWith("given")).toList();
            assertThat(applicationThread.get(0)).startsWith("started");
            assertThat(applicationThread.get(applicationThread.size() - 1)).startsWith("finished");
        }
    }

    private record SlowRound(long nanos, List<RoundReport> reports, List<RecordingListener> events) {
    }

    /**
     * Four ranks, 40 tasks of 1 ms, except rank 1's which take 20 ms; timed after an untimed warm-up round, so
     * that thread start-up and class loading do not count.
     */
    private static SlowRound slowRound(WorkloadScheduler kind) throws Exception {
        try (InJvmCluster c = InJvmCluster.open("slow-" + kind, 4)) {
            List<RecordingListener> events = List.of(new RecordingListener(), new RecordingListener(), new RecordingListener(),
                    new RecordingListener());
            List<TaskPool> pools = pools(c, kind, events::get);
            try {
                RankThreads.run(4, r -> pools.get(r).runRound(0, 8, new BitSet(), task -> { }));
                long start = System.nanoTime();
                List<RoundReport> reports = RankThreads.run(4,
                        r -> pools.get(r).runRound(1, MAX_TASKS, new BitSet(), task -> RankThreads.sleep(r == 1 ? 20 : 1)));
                return new SlowRound(System.nanoTime() - start, reports, events);
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WorkloadScheduler.class)
    void runRound_alreadyDoneTasks_neverRunOnAnyRank(WorkloadScheduler kind) throws Exception {
        BitSet done = new BitSet();
        IntStream.range(0, 30).filter(t -> t % 3 == 0 || t == 29).forEach(done::set);
        try (InJvmCluster c = InJvmCluster.open("done-" + kind, 3)) {
            List<RecordingListener> events = List.of(new RecordingListener(), new RecordingListener(), new RecordingListener());
            List<TaskPool> pools = pools(c, kind, events::get);
            try {
                List<RoundReport> reports = RankThreads.run(3,
                        r -> pools.get(r).runRound(5, 30, done, task -> RankThreads.sleep(r == 0 ? 5 : 0)));
                assertRoundComplete(kind, reports, 30, done);
                reports.forEach(rep -> assertThat(rep.executed()).noneMatch(done::get));
                events.forEach(l -> assertThat(l.events.get(0)).endsWith("skipped=11"));
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WorkloadScheduler.class)
    void runRound_everyTaskAlreadyDone_runsNothing(WorkloadScheduler kind) throws Exception {
        BitSet done = new BitSet();
        done.set(0, 12);
        try (InJvmCluster c = InJvmCluster.open("all-done-" + kind, 3)) {
            List<TaskPool> pools = pools(c, kind, r -> TaskPoolListener.NONE);
            try {
                List<RoundReport> reports = RankThreads.run(3, r -> pools.get(r).runRound(0, 12, done, task -> {
                    throw new AssertionError("task " + task + " was already done");
                }));
                reports.forEach(rep -> {
                    assertThat(rep.executed()).isEmpty();
                    assertThat(rep.stolen()).isEmpty();
                    assertThat(rep.givenAway()).isEmpty();
                });
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @Test
    void runRound_manyRoundsWithoutBarrier_messagesOfOneRoundNeverReachAnother() throws Exception {
        int ranks = 4;
        int rounds = 30;
        int[] taskCounts = new Random(SEED).ints(rounds, 0, 25).toArray();
        try (InJvmCluster c = InJvmCluster.open("rounds", ranks)) {
            List<TaskPool> pools = pools(c, WorkloadScheduler.CTWS, r -> TaskPoolListener.NONE);
            try {
                // no collective between rounds: fast ranks run ahead into the next round while others still steal
                List<List<RoundReport>> perRank = RankThreads.run(ranks, r -> {
                    List<RoundReport> out = new ArrayList<>();
                    for (int k = 0; k < rounds; k++) {
                        long sleep = r == k % ranks ? 2 : 0;
                        out.add(pools.get(r).runRound(100 + 3L * k, taskCounts[k], doneSet(k % 2 == 1, taskCounts[k]),
                                task -> RankThreads.sleep(sleep)));
                    }
                    return out;
                });
                int steals = 0;
                for (int k = 0; k < rounds; k++) {
                    int round = k;
                    List<RoundReport> reports = perRank.stream().map(l -> l.get(round)).toList();
                    reports.forEach(rep -> assertThat(rep.round()).isEqualTo(100 + 3L * round));
                    assertRoundComplete(WorkloadScheduler.CTWS, reports, taskCounts[k], doneSet(k % 2 == 1, taskCounts[k]));
                    steals += reports.stream().mapToInt(RoundReport::stolenCount).sum();
                }
                assertThat(steals).as("tasks stolen over all rounds").isPositive();
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WorkloadScheduler.class)
    void runRound_rankCrashesMidRound_othersThrowProcessFailedExceptionWithinSeconds(WorkloadScheduler kind) throws Exception {
        CountDownLatch othersStarted = new CountDownLatch(3);
        AtomicLong crashedAt = new AtomicLong();
        try (InJvmCluster c = InJvmCluster.open("crash-" + kind, 4)) {
            List<TaskPool> pools = pools(c, kind, r -> TaskPoolListener.NONE);
            try {
                List<Object> outcomes = RankThreads.run(4, r -> {
                    try {
                        return pools.get(r).runRound(0, MAX_TASKS, new BitSet(), task -> {
                            if (r != 2) {
                                othersStarted.countDown();
                            } else if (task == 21) {
                                await(othersStarted);
                                crashedAt.set(System.nanoTime());
                                c.crash(2);
                            }
                            RankThreads.sleep(30);
                        });
                    } catch (ProcessFailedException e) {
                        return new long[] {System.nanoTime(), e.failedRanks().contains(2) ? 1 : 0};
                    }
                });
                for (int r = 0; r < 4; r++) {
                    assertThat(outcomes.get(r)).as("rank %d", r).isInstanceOf(long[].class);
                    if (r != 2) {
                        long[] o = (long[]) outcomes.get(r);
                        assertThat(o[1]).as("rank 2 named as failed at rank %d", r).isEqualTo(1);
                        assertThat(o[0] - crashedAt.get()).isLessThan(TimeUnit.SECONDS.toNanos(2));
                    }
                }
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @Test
    void runRound_workThrows_exceptionPropagatesAndCtwsPeersRunTheUnstartedTasks() throws Exception {
        List<Integer> attempted = new CopyOnWriteArrayList<>();
        RecordingListener rank0 = new RecordingListener();
        try (InJvmCluster c = InJvmCluster.open("throws", 2)) {
            List<TaskPool> pools = pools(c, WorkloadScheduler.CTWS, r -> r == 0 ? rank0 : TaskPoolListener.NONE);
            try {
                List<Object> outcomes = RankThreads.run(2, r -> {
                    try {
                        return pools.get(r).runRound(0, 20, new BitSet(), task -> {
                            attempted.add(task);
                            if (task == 2) {
                                throw new IllegalStateException("shot 2 diverged");
                            }
                            RankThreads.sleep(5);
                        });
                    } catch (IllegalStateException e) {
                        return e;
                    }
                });
                assertThat(outcomes.get(0)).isInstanceOf(IllegalStateException.class).hasToString(
                        "java.lang.IllegalStateException: shot 2 diverged");
                assertThat(outcomes.get(1)).isInstanceOf(RoundReport.class);
                assertThat(attempted).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 20).boxed().toList());
                assertThat(((RoundReport) outcomes.get(1)).executed()).contains(3, 4, 5, 6, 7, 8, 9);
                List<String> applicationThread = rank0.events.stream().filter(e -> !e.startsWith("given")).toList();
                assertThat(applicationThread).containsExactly("started 0 assigned=10 skipped=0",
                        "failed 0 java.lang.IllegalStateException: shot 2 diverged");
                assertThat(rank0.events).contains("given 0 to=1 [6, 7, 8, 9]");
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @Test
    void runRound_ranksDisagreeOnAlreadyDone_failWithIllegalStateExceptionInsteadOfHanging() throws Exception {
        try (InJvmCluster c = InJvmCluster.open("disagree", 2)) {
            List<TaskPool> pools = pools(c, WorkloadScheduler.CTWS, r -> TaskPoolListener.NONE);
            try {
                List<List<String>> outcomes = RankThreads.run(2, r -> {
                    List<String> out = new ArrayList<>();
                    BitSet done = new BitSet();
                    if (r == 1) {
                        done.set(0); // rank 1 thinks task 0 finished before the restart; rank 0 does not
                    }
                    for (BitSet d : List.of(done, new BitSet())) {
                        try {
                            pools.get(r).runRound(out.size(), 10, d, task -> RankThreads.sleep(1));
                            out.add("ok");
                        } catch (IllegalStateException e) {
                            out.add(e.getMessage());
                        }
                    }
                    return out;
                });
                assertThat(outcomes).flatMap(l -> l).anyMatch(m -> m.contains("disagree"));
            } finally {
                pools.forEach(TaskPool::close);
            }
        }
    }

    @Test
    void runRound_invalidArguments_areRejectedWithTheReason() {
        try (InJvmCluster c = InJvmCluster.open("args", 1); TaskPool pool = TaskPool.create(c.group(0), WorkloadScheduler.CTWS,
                TaskPoolListener.NONE)) {
            BitSet none = new BitSet();
            BitSet tooLarge = new BitSet();
            tooLarge.set(5);
            assertThatThrownBy(() -> pool.runRound(-1, 3, none, t -> { })).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("non-negative");
            assertThatThrownBy(() -> pool.runRound(0, -3, none, t -> { })).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-3");
            assertThatThrownBy(() -> pool.runRound(0, 5, tooLarge, t -> { })).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("alreadyDone holds task 5");
            assertThatThrownBy(() -> pool.runRound(0, 5, none, null)).isInstanceOf(NullPointerException.class);
            assertThat(pool.runRound(3, 2, none, t -> { }).executed()).containsExactly(0, 1);
            assertThatThrownBy(() -> pool.runRound(3, 2, none, t -> { })).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must increase");
            assertThatThrownBy(() -> pool.runRound(2, 2, none, t -> { })).isInstanceOf(IllegalArgumentException.class);
            pool.close();
            assertThatThrownBy(() -> pool.runRound(4, 2, none, t -> { })).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
    }

    @Test
    void create_nullArguments_areRejected() {
        try (InJvmCluster c = InJvmCluster.open("null", 1)) {
            assertThatThrownBy(() -> TaskPool.create(null, WorkloadScheduler.DS, TaskPoolListener.NONE)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> TaskPool.create(c.group(0), null, TaskPoolListener.NONE)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> TaskPool.create(c.group(0), WorkloadScheduler.DS, null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Test
    void close_ctwsPool_stopsItsServiceThreads() throws Exception {
        try (InJvmCluster c = InJvmCluster.open("close", 3)) {
            TaskPool pool = TaskPool.create(c.group(0), WorkloadScheduler.CTWS, TaskPoolListener.NONE);
            assertThat(serviceThreads("close-r0-")).hasSize(2);
            pool.close();
            pool.close();
            assertThat(serviceThreads("close-r0-")).isEmpty();
        }
    }

    private static List<Thread> serviceThreads(String infix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("ironloop-tasks-") && t.getName().contains(infix))
                .filter(Thread::isAlive).toList();
    }

    // ---------------------------------------------------------------- helpers

    private static List<TaskPool> pools(InJvmCluster c, WorkloadScheduler kind, IntFunction<TaskPoolListener> listeners) {
        List<TaskPool> pools = new ArrayList<>();
        for (int r = 0; r < c.size(); r++) {
            pools.add(TaskPool.create(c.group(r), kind, listeners.apply(r)));
        }
        return pools;
    }

    /** A seeded subset of about a third of the round's tasks, or none; the same on every rank. */
    private static BitSet doneSet(boolean withDone, int taskCount) {
        BitSet done = new BitSet();
        if (withDone) {
            Random random = new Random(SEED * 31 + taskCount);
            for (int t = 0; t < taskCount; t++) {
                if (random.nextInt(3) == 0) {
                    done.set(t);
                }
            }
        }
        return done;
    }

    /**
     * Every task not in {@code done} ran exactly once over all ranks, each steal matches a hand-over, and with DS
     * each rank ran exactly its static block (contiguous in task order, lengths differing by at most one).
     */
    private static void assertRoundComplete(WorkloadScheduler kind, List<RoundReport> reports, int taskCount, BitSet done) {
        List<Integer> remaining = IntStream.range(0, taskCount).filter(t -> !done.get(t)).boxed().toList();
        String round = "round " + reports.get(0).round() + " of " + taskCount + " tasks";
        assertThat(reports.stream().flatMap(r -> r.executed().stream()).sorted().toList()).as(round).isEqualTo(remaining);
        List<String> steals = new ArrayList<>();
        List<String> handOvers = new ArrayList<>();
        for (RoundReport r : reports) {
            for (Transfer t : r.stolen()) {
                steals.add(t.peer() + "->" + r.rank() + " " + t.tasks());
            }
            for (Transfer t : r.givenAway()) {
                handOvers.add(r.rank() + "->" + t.peer() + " " + t.tasks());
            }
        }
        assertThat(steals).as(round).containsExactlyInAnyOrderElementsOf(handOvers);
        if (kind == WorkloadScheduler.DS) {
            assertThat(steals).isEmpty();
            int size = reports.size();
            int from = 0;
            for (int r = 0; r < size; r++) {
                int length = remaining.size() / size + (r < remaining.size() % size ? 1 : 0);
                assertThat(reports.get(r).executed()).as(round + ", rank " + r).isEqualTo(remaining.subList(from, from + length));
                from += length;
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Records events as strings, in the order they happened on this rank. */
    static final class RecordingListener implements TaskPoolListener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void roundStarted(long round, int assignedTasks, int skippedTasks) {
            events.add("started " + round + " assigned=" + assignedTasks + " skipped=" + skippedTasks);
        }

        @Override
        public void tasksStolen(long round, int fromRank, List<Integer> tasks) {
            events.add("stolen " + round + " from=" + fromRank + " " + tasks);
        }

        @Override
        public void tasksGivenAway(long round, int toRank, List<Integer> tasks) {
            events.add("given " + round + " to=" + toRank + " " + tasks);
        }

        @Override
        public void roundFinished(RoundReport report) {
            events.add("finished " + report.round() + " " + report);
        }

        @Override
        public void roundFailed(long round, Throwable cause) {
            events.add("failed " + round + " " + cause);
        }
    }
}
