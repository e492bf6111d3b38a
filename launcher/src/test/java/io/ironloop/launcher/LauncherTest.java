package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor in-process, with real rank JVMs running {@link LoopApp}. */
class LauncherTest {
    private final String jobId = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    private LaunchResult launch(int ranks, Consumer<LaunchSpec.Builder> customize, String... appArgs) {
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir)
                .application(new Application(LoopApp.class.getName(), Optional.empty()))
                .arguments(List.of(appArgs)).backoff(Duration.ofMillis(100)).grace(Duration.ofSeconds(10))
                .settle(Duration.ofSeconds(1)) // LoopApp does not detect failures itself
                .out(new PrintStream(out, true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        customize.accept(b);
        return Launcher.run(b.build());
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static List<TimelineEvent> events(LaunchResult r, String type, int rank) {
        return r.events(type).filter(e -> e.rank() == rank).toList();
    }

    @Test
    void run_allRanksExitZero_exitsZeroForwardsOutputCleanPrefixesErrorsAndSetsEnvironment() throws Exception {
        Files.writeString(dir.resolve("ft.json"), "{}");

        LaunchResult r = launch(2, b -> b.params(Path.of("ft.json")), "iterations=3", "report-env");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(out()).contains("rank 0 attempt 0 iteration 3", "rank 1 attempt 0 iteration 3",
                "rank 0 done attempt 0", "rank 1 done attempt 0");
        assertThat(out().lines()).as("standard output carries what the ranks print, unprefixed")
                .contains("rank 0 done attempt 0", "rank 1 done attempt 0");
        assertThat(err()).contains("[0] rank 0 started pid", "[1] rank 1 started pid");
        assertThat(out()).doesNotContain("started pid");
        for (String line : out().lines().filter(l -> l.contains(" env ")).toList()) {
            assertThat(line).matches("rank ([01]) env .* rank-property=\\1")
                    .contains("size=2", "job=" + jobId, "job-property=" + jobId, "secret-perms=rw-------",
                            "params=" + dir.resolve("ft.json").toRealPath(), "cwd=" + dir.toRealPath())
                    .containsPattern("launcher=127\\.0\\.0\\.1:\\d+")
                    .containsPattern("peers=127\\.0\\.0\\.1:(\\d+),127\\.0\\.0\\.1:(?!\\1)\\d+ ");
        }
        Matcher secret = Pattern.compile("secret=(\\S+)").matcher(out());
        assertThat(secret.find()).isTrue();
        assertThat(Path.of(secret.group(1))).as("the generated secret is deleted at the end").doesNotExist();
        assertThat(r.events(TimelineEvent.RANK_CONNECTED)).hasSize(2);
        assertThat(r.events("saved")).isNotEmpty();
    }

    @Test
    void run_rankExitsNonZeroWithoutRestarts_stopsOthersAndFails() {
        LaunchResult r = launch(2, b -> { }, "iterations=500", "exit-rank=1", "exit-at=10", "exit-status=3");

        assertThat(r.exitStatus()).as(err()).isEqualTo(3);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(events(r, TimelineEvent.FAILURE_DETECTED, 1)).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("status", 3).containsEntry("iteration", 10L));
        assertThat(r.events(TimelineEvent.STOPPING)).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("signal", "SIGTERM").containsEntry("ranks", List.of(0)));
        assertThat(events(r, TimelineEvent.RANK_EXITED, 0)).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("status", 143));
        assertThat(out()).contains("rank 1 exits with 3").doesNotContain("done attempt");
        assertThat(r.events(TimelineEvent.RESTART_SCHEDULED)).isEmpty();
    }

    @Test
    void run_failureWithRestarts_relaunchesWithNextAttemptAndSucceeds() {
        LaunchResult r = launch(2, b -> b.restarts(2), "iterations=5", "exit-rank=0", "exit-at=2", "exit-attempt=0");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.events(TimelineEvent.RESTART_SCHEDULED)).singleElement()
                .satisfies(e -> assertThat(e.fields()).containsEntry("next_attempt", 1).containsEntry("delay_ms", 100L));
        assertThat(out()).contains("rank 0 exits with 3", "rank 0 attempt 1 iteration 5",
                "rank 1 done attempt 1");
        assertThat(r.summary()).contains("after 1 restart");
    }

    @Test
    void run_failFault_killsRankAtIterationWithSigkillAndRestartCompletes() {
        LaunchResult r = launch(2, b -> b.restarts(1).kill(new Fault.KillAtIteration(1, 3)), "iterations=6");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        TimelineEvent injected = events(r, TimelineEvent.FAULT_INJECTED, 1).get(0);
        assertThat(injected.fields()).containsEntry("signal", "SIGKILL").containsEntry("iteration", 3L);
        TimelineEvent exited = events(r, TimelineEvent.RANK_EXITED, 1).get(0);
        assertThat(exited.attempt()).isZero();
        assertThat(exited.pid()).isEqualTo(injected.pid());
        assertThat(exited.fields()).containsEntry("status", 137).containsEntry("signal", "SIGKILL");
        long lastReported = r.timeline().stream()
                .filter(e -> e.attempt() == 0 && e.rank() == 1 && e.type().equals("iteration"))
                .mapToLong(e -> e.longField("iteration").orElseThrow()).max().orElseThrow();
        assertThat(lastReported).as("killed while waiting at iteration 3").isEqualTo(3);
        assertThat(out()).contains("rank 1 attempt 0 iteration 2").doesNotContain("rank 1 attempt 0 iteration 3")
                .contains("rank 1 done attempt 1");
        assertThat(r.events(TimelineEvent.FAULT_INJECTED)).hasSize(1);
    }

    @Test
    void run_failAtIterationZero_killsRankAsSoonAsItConnectsAndRestartCompletes() {
        LaunchResult r = launch(2, b -> b.restarts(1).kill(new Fault.KillAtIteration(1, 0)), "iterations=3");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        TimelineEvent injected = events(r, TimelineEvent.FAULT_INJECTED, 1).get(0);
        assertThat(injected.attempt()).isZero();
        assertThat(injected.fields()).containsEntry("signal", "SIGKILL").containsEntry("iteration", 0L);
        assertThat(r.timeline().stream().filter(e -> e.attempt() == 0 && e.rank() == 1 && e.type().equals("iteration")))
                .as("killed before its first iteration").isEmpty();
        assertThat(out()).contains("rank 1 done attempt 1");
    }

    @Test
    void run_preemptFault_sendsSigtermAfterDelayAndRestartCompletes() {
        LaunchResult r = launch(1, b -> b.restarts(1).preempt(new Fault.Preemption(0, Duration.ofMillis(1500))),
                "iterations=40", "sleep-ms=50");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        TimelineEvent injected = events(r, TimelineEvent.FAULT_INJECTED, 0).get(0);
        assertThat(injected.fields()).containsEntry("signal", "SIGTERM");
        assertThat(Duration.between(r.started(), injected.time())).isBetween(Duration.ofMillis(1500), Duration.ofSeconds(5));
        assertThat(events(r, TimelineEvent.RANK_EXITED, 0).get(0).fields()).containsEntry("status", 143);
        assertThat(out()).contains("rank 0 done attempt 1");
    }

    @Test
    void run_preemptAtIteration_sigtermExactlyThereWhateverTheSpeed() {
        // a run this short ends long before any wall-clock preemption a slower machine would need
        LaunchResult r = launch(2, b -> b.restarts(1).preempt(new Fault.PreemptAtIteration(1, 3)), "iterations=6", "sleep-ms=1");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        TimelineEvent injected = events(r, TimelineEvent.FAULT_INJECTED, 1).get(0);
        assertThat(injected.attempt()).isZero();
        assertThat(injected.fields()).containsEntry("signal", "SIGTERM").containsEntry("iteration", 3L)
                .containsEntry("fault", "--preempt 1@it3");
        assertThat(events(r, TimelineEvent.RANK_EXITED, 1).get(0).fields()).containsEntry("status", 143);
        assertThat(out()).as("it waited at iteration 3 for the launcher, which answered with SIGTERM")
                .contains("rank 1 attempt 0 iteration 2").doesNotContain("rank 1 attempt 0 iteration 3")
                .contains("rank 1 done attempt 1");
    }

    @Test
    void run_sameFailureRepeats_stopsRestartingAsStorm() {
        LaunchResult r = launch(1, b -> b.restarts(5).stormLimit(3),
                "iterations=5", "exit-rank=0", "exit-at=2", "exit-attempt=-1");

        assertThat(r.exitStatus()).isEqualTo(3);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(r.events(TimelineEvent.RESTART_STORM)).hasSize(1);
        assertThat(r.summary()).contains("restart storm", "at iteration 2");
        assertThat(err()).contains("restart storm");
    }

    @Test
    void run_faultPastDeclaredPlan_isUsageErrorWithoutRestart() {
        LaunchResult r = launch(1, b -> b.restarts(2).kill(new Fault.KillAtIteration(0, 9)), "iterations=5",
                "sleep-ms=200", "plan");

        assertThat(r.exitStatus()).isEqualTo(2);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.summary()).contains("--fail 0@9 is past the last iteration (5");
        assertThat(r.events(TimelineEvent.USAGE_ERROR)).hasSize(1);
    }

    @Test
    void run_faultNeverFires_isReportedAtTheEnd() {
        LaunchResult r = launch(1, b -> b.kill(new Fault.KillAtIteration(0, 9)), "iterations=2");

        assertThat(r.exitStatus()).isEqualTo(2);
        assertThat(r.summary()).contains("--fail 0@9 never fired");
    }

    /**
     * The launcher watchdog of a rank blocks in a socket read for the rank's whole life; left there at exit, it
     * made every rank JVM's exit wait about 0.3 s (HotSpot waits for threads in native code). A shutdown hook
     * now ends it without halting the rank.
     */
    @Test
    void run_rankExits_launcherWatchdogHasEndedBeforeTheJvmExitsAndTheRankExitsZero() {
        LaunchResult r = launch(1, b -> { }, "iterations=2", "report-watchdog-at-exit");

        assertThat(r.exitStatus()).as(err()).isZero();
        assertThat(out()).contains("rank 0 watchdog at exit TERMINATED");
        assertThat(err()).doesNotContain("halts now");
    }
}
