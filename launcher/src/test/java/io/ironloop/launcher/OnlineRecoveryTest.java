package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor of a job whose ranks recover online ({@link OnlineRank}, real rank JVMs on the real group
 * layer): a lost rank — by {@code --fail}, by an external {@code kill -9}, by SIGSTOP — leaves the others running
 * in the same JVMs; only a job whose survivors cannot recover, or stay silent past the deadline, is relaunched.
 * Spares and fake hosts reach every rank's environment. At most four rank JVMs at a time.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OnlineRecoveryTest {
    private final String jobId = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicLong signalled = new AtomicLong(-1);

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        ProcessHandle.of(signalled.get()).ifPresent(ProcessHandle::destroyForcibly);
        JobProcesses.killJob(jobId);
    }

    private LaunchSpec.Builder spec(int ranks, String... appArgs) {
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir)
                .application(new Application(OnlineRank.class.getName(), Optional.empty()))
                .arguments(List.of(appArgs)).backoff(Duration.ofMillis(100)).grace(Duration.ofSeconds(10))
                .settle(Duration.ofSeconds(5))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        return b;
    }

    private LaunchResult launch(int ranks, Consumer<LaunchSpec.Builder> customize, String... appArgs) {
        LaunchSpec.Builder b = spec(ranks, appArgs);
        customize.accept(b);
        return Launcher.run(b.build());
    }

    private String log() {
        return err.toString(StandardCharsets.UTF_8) + "\n--- stdout ---\n" + out.toString(StandardCharsets.UTF_8);
    }

    /** The pid each rank started with, by rank, in attempt 0. */
    private static Map<Integer, Long> startedPids(LaunchResult r) {
        return r.events(TimelineEvent.RANK_STARTED).filter(e -> e.attempt() == 0)
                .collect(Collectors.toMap(TimelineEvent::rank, TimelineEvent::pid));
    }

    /** Every survivor ran to the end in the JVM it started in: one attempt, exit 0, the pid it started with. */
    private void assertSurvivorsKeptTheirJvms(LaunchResult r, Set<Integer> lost, int world) {
        Map<Integer, Long> started = startedPids(r);
        assertThat(started).as(log()).hasSize(world);
        assertThat(r.events(TimelineEvent.RANK_STARTED)).as("no rank was started again: " + log()).hasSize(world);
        for (int rank = 0; rank < world; rank++) {
            int rk = rank;
            TimelineEvent exit = r.events(TimelineEvent.RANK_EXITED).filter(e -> e.rank() == rk).findFirst().orElseThrow();
            assertThat(exit.pid()).as(log()).isEqualTo(started.get(rank));
            assertThat(exit.fields().get("status")).as("rank " + rank + ": " + log()).isEqualTo(lost.contains(rank) ? 137 : 0);
        }
    }

    @Test
    void failFault_onlineProtectedJob_othersKeepRunningNoRelaunch() {
        LaunchResult r = launch(3, b -> b.restarts(2).kill(new Fault.KillAtIteration(1, 5)), "iterations=12");

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(1);
        assertSurvivorsKeptTheirJvms(r, Set.of(1), 3);
        assertThat(r.events(TimelineEvent.ONLINE_PROTECTED)).as(log()).hasSize(1);
        assertThat(r.events(TimelineEvent.RANK_LOST)).as(log()).singleElement().satisfies(e -> {
            assertThat(e.rank()).isEqualTo(1);
            assertThat(e.fields()).containsEntry("status", 137).containsEntry("injected", true).containsEntry("iteration", 5L);
        });
        assertThat(r.events(TimelineEvent.FAILURE_DETECTED)).as(log()).isEmpty();
        assertThat(r.events(TimelineEvent.STOPPING)).as(log()).isEmpty();
        assertThat(r.events("shrunk")).as(log()).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("lost", List.of(1)).containsEntry("size", 2));
        assertThat(r.events("recovered")).as(log()).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("lost", List.of(1)).containsEntry("source", "memory")
                        .containsKeys("detect_s", "shrink_s", "restore_s", "rebalance_s", "iteration", "spares"));
        assertThat(out.toString(StandardCharsets.UTF_8)).as(log()).contains("online sum=").contains("size=2");
        assertThat(r.summary()).contains("the 2 surviving ranks exited 0 after losing rank [1]", "1 online recovery");
        assertThat(r.events(TimelineEvent.JOB_FINISHED)).singleElement().satisfies(e -> assertThat(e.fields())
                .containsEntry("relaunches", 0).containsEntry("online_recoveries", 1));
    }

    @Test
    void twoFailFaultsOnDifferentRanks_sameAttempt_twoOnlineRecoveries() {
        LaunchResult r = launch(4, b -> b.restarts(1).kill(new Fault.KillAtIteration(1, 4)).kill(new Fault.KillAtIteration(3, 9)),
                "iterations=14");

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(2);
        assertSurvivorsKeptTheirJvms(r, Set.of(1, 3), 4);
        assertThat(r.events(TimelineEvent.FAULT_INJECTED).map(TimelineEvent::rank)).as(log()).containsExactly(1, 3);
        assertThat(r.events("recovered").map(e -> e.fields().get("lost"))).as(log()).containsExactly(List.of(1), List.of(3));
        assertThat(out.toString(StandardCharsets.UTF_8)).as(log()).contains("size=2");
    }

    @Test
    void externalKillMinus9_rankFoundByItsCommandLine_recoveredOnline() throws Exception {
        AtomicBoolean fired = new AtomicBoolean();
        CompletableFuture<Long> killed = new CompletableFuture<>();
        LaunchSpec.Builder b = spec(3, "iterations=14").restarts(2).eventListener(e -> {
            if (e.rank() == 0 && "iteration".equals(e.type()) && e.longField("iteration").orElse(0) == 4
                    && fired.compareAndSet(false, true)) {
                // like an operator: find rank 2 by its command line and kill -9 it, from another thread
                CompletableFuture.runAsync(() -> {
                    ProcessHandle victim = JobProcesses.rankOf(jobId, 2).orElseThrow();
                    JobProcesses.signal(victim.pid(), "KILL");
                    killed.complete(victim.pid());
                }).exceptionally(t -> {
                    killed.completeExceptionally(t);
                    return null;
                });
            }
        });

        LaunchResult r = Launcher.run(b.build());

        long victim = killed.get();
        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(1);
        assertThat(startedPids(r).get(2)).isEqualTo(victim);
        assertSurvivorsKeptTheirJvms(r, Set.of(2), 3);
        assertThat(r.events(TimelineEvent.RANK_LOST)).as(log()).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("injected", false).containsEntry("status", 137));
    }

    @Test
    void stoppedRank_reportedFailedBySurvivors_killedAndRecoveredOnline() {
        AtomicBoolean fired = new AtomicBoolean();
        LaunchSpec.Builder b = spec(3, "iterations=40").restarts(1).eventListener(e -> {
            if (e.rank() == 2 && "iteration".equals(e.type()) && e.longField("iteration").orElse(0) == 3
                    && fired.compareAndSet(false, true)) {
                JobProcesses.signal(e.pid(), "STOP");
                signalled.set(e.pid());
            }
        });

        LaunchResult r = Launcher.run(b.build());

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(1);
        assertThat(r.events(TimelineEvent.STOPPED_RANK_KILLED)).as(log()).singleElement().satisfies(e -> {
            assertThat(e.rank()).isEqualTo(2);
            assertThat(e.pid()).isEqualTo(signalled.get());
            assertThat(String.valueOf(e.fields().get("reason"))).contains("reported it failed");
        });
        assertSurvivorsKeptTheirJvms(r, Set.of(2), 3);
    }

    @Test
    void recoveryImpossible_attemptFailsAndIsRelaunchedFromDisk() {
        LaunchResult r = launch(3, b -> b.restarts(1).kill(new Fault.KillAtIteration(1, 4)), "iterations=8", "mode=impossible");

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isEqualTo(1);
        assertThat(r.onlineRecoveries()).as(log()).isZero();
        assertThat(r.events("recovery-impossible")).as(log()).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("lost", List.of(1)));
        assertThat(r.events(TimelineEvent.ONLINE_RECOVERY_FAILED)).as(log()).singleElement().satisfies(e -> {
            assertThat(e.rank()).isEqualTo(1);
            assertThat(String.valueOf(e.fields().get("reason"))).contains("cannot recover online from the loss of rank [1]",
                    "the copies of rank [1] are gone");
        });
        assertThat(r.events(TimelineEvent.RANK_EXITED).filter(e -> e.attempt() == 0 && e.rank() != 1))
                .as("the survivors exited by themselves: " + log()).allSatisfy(e -> assertThat(e.fields())
                        .containsEntry("status", OnlineRank.EXIT_IMPOSSIBLE));
        assertThat(r.events(TimelineEvent.RESTART_SCHEDULED)).as(log()).singleElement().satisfies(e -> assertThat(
                String.valueOf(e.fields().get("after"))).contains("rank 1 exited with", "cannot recover online"));
    }

    @Test
    void survivorsNeverReport_deadlinePasses_attemptStoppedAndRelaunched() {
        Duration deadline = Duration.ofSeconds(3);
        LaunchResult r = launch(3, b -> b.restarts(1).recoveryDeadline(deadline).kill(new Fault.KillAtIteration(1, 4)),
                "iterations=60", "mode=silent");

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isEqualTo(1);
        assertThat(r.onlineRecoveries()).as(log()).isZero();
        TimelineEvent lost = r.events(TimelineEvent.RANK_LOST).findFirst().orElseThrow();
        TimelineEvent overdue = r.events(TimelineEvent.ONLINE_RECOVERY_FAILED).findFirst().orElseThrow(() -> new AssertionError(log()));
        assertThat(String.valueOf(overdue.fields().get("reason"))).contains("no survivor reported an online recovery from the loss"
                + " of rank 1 within 3s");
        assertThat(Duration.between(lost.time(), overdue.time())).as(log()).isBetween(deadline, deadline.plusSeconds(2));
        assertThat(r.events(TimelineEvent.STOPPING).filter(e -> e.attempt() == 0)).as(log()).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("ranks", List.of(0, 2)).containsEntry("signal", "SIGTERM"));
    }

    @Test
    void sparesAndFakeHosts_everyRankLearnsThemFromItsEnvironment() {
        LaunchResult r = launch(3, b -> b.spares(1).fakeHosts(2), "iterations=2", "report-env");

        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.events(TimelineEvent.RANK_STARTED)).as("N + S rank JVMs").hasSize(4);
        List<String> env = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(" env ")).sorted().toList();
        assertThat(env).as(log()).containsExactly(
                "rank 0 env size=4 spares=1 spare=false host=host-0 IRONLOOP_SPARES=1 IRONLOOP_HOST=host-0",
                "rank 1 env size=4 spares=1 spare=false host=host-0 IRONLOOP_SPARES=1 IRONLOOP_HOST=host-0",
                "rank 2 env size=4 spares=1 spare=false host=host-1 IRONLOOP_SPARES=1 IRONLOOP_HOST=host-1",
                "rank 3 env size=4 spares=1 spare=true host=host-1 IRONLOOP_SPARES=1 IRONLOOP_HOST=host-1");
    }
}
