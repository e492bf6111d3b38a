package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.quickstart.Quickstart;
import io.ironloop.examples.quickstart.QuickstartRank;

/**
 * DeLIA's quick-start program on real rank JVMs under the launcher: a real SIGKILL or SIGTERM mid-run,
 * a supervised restart from the checkpoints, and the result bit-identical to the uninterrupted reference.
 */
class QuickstartRecoveryTest {
    private static final int SIZE = 2000;
    private static final int ITERATIONS = 14;

    private final String jobId = "qs-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    private LaunchResult launch(String params, Consumer<LaunchSpec.Builder> customize) throws Exception {
        Path file = dir.resolve("params.json");
        Files.writeString(file, params);
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(3).jobId(jobId).workingDirectory(dir).restarts(2)
                .application(new Application(QuickstartRank.class.getName(), Optional.empty()))
                .arguments(List.of(Integer.toString(SIZE), Integer.toString(ITERATIONS), "300")).params(file)
                .backoff(Duration.ofMillis(100)).grace(Duration.ofSeconds(20))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        customize.accept(b);
        return Launcher.run(b.build());
    }

    private String resultLine() {
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("result sha256="))
                .map(l -> l.substring(l.indexOf("result sha256="))).reduce((a, c) -> c).orElse("none");
    }

    @Test
    void killMinusNineOfRankOne_heartbeatSurvivorsSaveLocal_restartBitIdentical() throws Exception {
        LaunchResult r = launch("""
                {"FT_FOLDER": "ft", "CHECKPOINTING_GLOBAL_ITERATION": 1,
                 "TRIGGER_HEARTBEAT_MONITORING": {"TIME_MAX_WAIT": 5, "SLEEP_THREAD_TIME": 1}}
                """, b -> b.kill(new Fault.KillAtIteration(1, 6)));
        assertThat(r.exitStatus()).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(resultLine()).isEqualTo(Quickstart.simulate(3, SIZE, ITERATIONS));
        assertThat(r.events("detected").count()).as("survivors reported the failure").isEqualTo(2);
        assertThat(r.events("saved").filter(e -> "local".equals(e.fields().get("level"))).count())
                .as("survivors saved their local state").isGreaterThanOrEqualTo(2);
        assertThat(r.events("restored").map(e -> e.longField("iteration").orElse(-1))).contains(6L);
        savesReportWhatTheStoreHoldsAndWhatTheyBlocked(r);
    }

    /** Every line of the global state the store holds was reported with its file's size and a blocking time. */
    private void savesReportWhatTheStoreHoldsAndWhatTheyBlocked(LaunchResult r) throws Exception {
        List<LineInfo> lines = StoreCatalog.of(Store.directory(dir.resolve("ft"))).lines("global");
        assertThat(lines).as("global lines kept").isNotEmpty();
        for (LineInfo line : lines) {
            List<TimelineEvent> saves = r.events("saved").filter(e -> "global".equals(e.fields().get("level"))
                    && e.longField("iteration").orElse(-1) == line.iteration()).toList();
            assertThat(saves).as("the save of iteration %d", line.iteration()).isNotEmpty().allSatisfy(e -> {
                assertThat(e.longField("bytes").orElse(-1)).as("bytes of %s", line.dataFile()).isEqualTo(line.dataBytes());
                assertThat(e.doubleField("blocking_s").orElse(-1)).as("what the snapshot blocked").isGreaterThan(0).isLessThan(10);
            });
        }
    }

    @Test
    void sigtermToRankZero_signalTriggerOnByDefault_savesAndExits143_restartBitIdentical_thenAlreadyComplete() throws Exception {
        String params = """
                {"FT_FOLDER": "ft", "CHECKPOINTING_GLOBAL_ITERATION": 4}
                """; // no TRIGGER_SIGNAL: termination signals save by default
        LaunchResult r = launch(params, b -> b.preempt(new Fault.Preemption(0, Duration.ofMillis(4500))));
        assertThat(r.exitStatus()).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(r.events(TimelineEvent.RANK_EXITED).filter(e -> e.rank() == 0).map(e -> e.longField("status").orElse(-1)))
                .contains(143L);
        assertThat(resultLine()).isEqualTo(Quickstart.simulate(3, SIZE, ITERATIONS));
        out.reset();
        LaunchResult again = launch(params, b -> { });
        assertThat(again.exitStatus()).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("already complete");
        assertThat(resultLine()).isEqualTo(Quickstart.simulate(3, SIZE, ITERATIONS));

        err.reset();
        LaunchResult withFault = launch(params, b -> b.kill(new Fault.KillAtIteration(1, 7)));
        assertThat(withFault.exitStatus()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).as("the fault is not to blame")
                .contains("the job was already complete in " + dir.resolve("ft"), "--fail 1@7 could not fire: use --fresh")
                .doesNotContain("never fired");
    }
}
