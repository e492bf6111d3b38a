package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rank stopped with a real {@code kill -STOP}, never resumed, at a seeded moment of a real job: the
 * supervisor must never wait on it. Whatever the moment, the stopped rank is killed (SIGKILL) — at once when
 * the attempt is ending anyway, otherwise after {@link StoppedRanks#STOPPED_LIMIT} — and the launcher returns.
 * The seed ({@code -Dironloop.test.seed}, default 13) picks the number of ranks, the victim and the
 * iterations; it is in every failure message.
 */
class StoppedRankTest {
    private static final long SEED = Long.getLong("ironloop.test.seed", 13L);
    /** Settle and grace far longer than any expected stop: waiting on the stopped rank would show. */
    private static final Duration LONG_SETTLE = Duration.ofSeconds(30);
    private static final Duration LONG_GRACE = Duration.ofSeconds(60);
    /** How soon after the attempt started ending the stopped rank must be gone. */
    private static final Duration AT_ONCE = Duration.ofSeconds(5);

    private final String jobId = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicLong stoppedPid = new AtomicLong(-1);

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        ProcessHandle.of(stoppedPid.get()).ifPresent(ProcessHandle::destroyForcibly);
        JobProcesses.killJob(jobId);
    }

    /** When the victim is stopped, and what else happens in the attempt. */
    enum Moment {
        /** Right after its JVM started, before it connects: like a rank stopped during group formation. */
        BEFORE_CONNECTING,
        /** At an iteration while the others compute on: they wait for it in a real application. */
        MID_RUN,
        /** At its second-to-last iteration: the others finish and exit 0 without it. */
        OTHERS_FINISH,
        /** While another rank fails with a non-zero exit. */
        ANOTHER_FAILS,
        /** Then the launcher gets SIGTERM, which it forwards; the stopped rank cannot answer it. */
        LAUNCHER_SIGNALLED
    }

    private record Plan(int ranks, int victim, int stopAt, int other, List<String> args, Duration settle, Duration grace,
            int restarts) {
    }

    private static Plan plan(Moment moment, Random random) {
        int ranks = 2 + random.nextInt(2);
        int victim = random.nextInt(ranks);
        int other = (victim + 1 + random.nextInt(ranks - 1)) % ranks;
        int stopAt = 2 + random.nextInt(4);
        return switch (moment) {
            case BEFORE_CONNECTING -> new Plan(ranks, victim, 0, other, List.of("iterations=100000", "sleep-ms=20"),
                    Duration.ofSeconds(1), Duration.ofSeconds(10), 0);
            case MID_RUN -> new Plan(ranks, victim, stopAt, other, List.of("iterations=100000", "sleep-ms=20"),
                    Duration.ofSeconds(1), Duration.ofSeconds(10), 0);
            case OTHERS_FINISH -> new Plan(ranks, victim, stopAt, other, List.of("iterations=" + (stopAt + 1), "sleep-ms=500"),
                    LONG_SETTLE, LONG_GRACE, 1);
            case ANOTHER_FAILS -> new Plan(2, victim % 2, 2, 1 - victim % 2, List.of("iterations=100000", "sleep-ms=100",
                    "exit-rank=" + (1 - victim % 2), "exit-at=" + (stopAt + 30), "exit-status=3"), LONG_SETTLE, LONG_GRACE, 0);
            case LAUNCHER_SIGNALLED -> new Plan(ranks, victim, stopAt, other, List.of("iterations=100000", "sleep-ms=20"),
                    LONG_SETTLE, LONG_GRACE, 0);
        };
    }

    @ParameterizedTest
    @EnumSource(Moment.class)
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void stoppedRank_isKilledNeverWaitedOn(Moment moment) {
        long seed = SEED * 31 + moment.ordinal();
        Plan plan = plan(moment, new Random(seed));
        String about = moment + " " + plan + " (seed " + seed + ")";
        List<TimelineEvent> seen = new CopyOnWriteArrayList<>();
        Launcher[] launcher = new Launcher[1];
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(plan.ranks()).jobId(jobId).workingDirectory(dir)
                .application(new Application(LoopApp.class.getName(), Optional.empty())).arguments(plan.args())
                .restarts(plan.restarts()).backoff(Duration.ofMillis(100)).settle(plan.settle()).grace(plan.grace())
                .out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8))
                .eventListener(e -> {
                    seen.add(e);
                    if (e.attempt() == 0 && e.rank() == plan.victim() && stoppedPid.get() < 0 && isStopMoment(e, plan)) {
                        JobProcesses.signal(e.pid(), "STOP");
                        stoppedPid.set(e.pid());
                        if (moment == Moment.LAUNCHER_SIGNALLED) {
                            launcher[0].deliver(LauncherSignal.TERM);
                        }
                    }
                });
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        launcher[0] = new Launcher(b.build());

        LaunchResult r = launcher[0].execute();

        String log = about + "\n" + err.toString(StandardCharsets.UTF_8);
        assertThat(stoppedPid.get()).as(log).isPositive();
        TimelineEvent killed = r.events(TimelineEvent.STOPPED_RANK_KILLED).findFirst().orElseThrow(() -> new AssertionError(
                "the stopped rank was not killed for being stopped: " + log));
        assertThat(killed.rank()).as(log).isEqualTo(plan.victim());
        assertThat(killed.pid()).as(log).isEqualTo(stoppedPid.get());
        TimelineEvent exit = r.events(TimelineEvent.RANK_EXITED)
                .filter(e -> e.pid() == stoppedPid.get()).findFirst().orElseThrow();
        assertThat(exit.fields()).as(log).containsEntry("status", 137);
        assertThat(ProcessHandle.of(stoppedPid.get()).map(ProcessHandle::isAlive)).as(log).isNotEqualTo(Optional.of(true));
        String reason = String.valueOf(killed.fields().get("reason"));
        switch (moment) {
            case BEFORE_CONNECTING, MID_RUN -> {
                assertThat(reason).as(log).contains("stayed stopped for 10s");
                assertThat(((Number) killed.fields().get("stopped_s")).doubleValue()).as(log)
                        .isGreaterThanOrEqualTo(StoppedRanks.STOPPED_LIMIT.toMillis() / 1000.0);
                assertThat(Duration.between(stopTime(seen, plan), killed.time())).as(log)
                        .isLessThan(StoppedRanks.STOPPED_LIMIT.plus(AT_ONCE));
                assertThat(r.exitStatus()).as(log).isEqualTo(137);
                if (moment == Moment.BEFORE_CONNECTING) {
                    assertThat(r.events(TimelineEvent.RANK_CONNECTED).filter(e -> e.rank() == plan.victim())).as(log).isEmpty();
                }
            }
            case OTHERS_FINISH -> {
                assertThat(reason).as(log).contains("other ranks exited 0");
                Instant lastZeroExit = r.events(TimelineEvent.RANK_EXITED).filter(e -> e.attempt() == 0 && e.rank() != plan.victim())
                        .map(TimelineEvent::time).max(Instant::compareTo).orElseThrow();
                assertThat(Duration.between(lastZeroExit, killed.time())).as(log).isLessThan(AT_ONCE);
                assertThat(r.exitStatus()).as("the restart completes: " + log).isZero();
                assertThat(r.attempts()).as(log).isEqualTo(2);
            }
            case ANOTHER_FAILS -> {
                assertThat(reason).as(log).contains("rank " + plan.other() + " failed");
                TimelineEvent failure = r.events(TimelineEvent.FAILURE_DETECTED).findFirst().orElseThrow();
                assertThat(failure.rank()).as(log).isEqualTo(plan.other());
                assertThat(Duration.between(failure.time(), killed.time())).as("not after --settle " + plan.settle() + ": " + log)
                        .isLessThan(AT_ONCE);
                assertThat(r.exitStatus()).as(log).isEqualTo(3);
            }
            case LAUNCHER_SIGNALLED -> {
                assertThat(reason).as(log).contains("being stopped and it cannot answer SIGTERM");
                assertThat(Duration.between(stopTime(seen, plan), killed.time())).as("not after --grace: " + log).isLessThan(AT_ONCE);
                assertThat(r.exitStatus()).as(log).isEqualTo(143);
            }
        }
        assertThat(Duration.between(r.started(), Instant.now())).as("the launcher returned: " + log)
                .isLessThan(StoppedRanks.STOPPED_LIMIT.plus(Duration.ofSeconds(45)));
    }

    private static boolean isStopMoment(TimelineEvent e, Plan plan) {
        if (plan.stopAt() == 0) {
            return e.type().equals(TimelineEvent.RANK_STARTED);
        }
        return e.type().equals("iteration") && ((Number) e.fields().get("iteration")).longValue() == plan.stopAt();
    }

    private static Instant stopTime(List<TimelineEvent> seen, Plan plan) {
        return seen.stream().filter(e -> e.attempt() == 0 && e.rank() == plan.victim() && isStopMoment(e, plan))
                .map(TimelineEvent::time).findFirst().orElseThrow();
    }
}
