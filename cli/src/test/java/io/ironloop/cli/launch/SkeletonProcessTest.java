package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.examples.skeleton.HeatSkeletonRank;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heat example on the skeleton in real rank JVMs under the launcher: a rank killed with SIGKILL at a seeded
 * step is recovered inside the job, and a job whose every rank is killed resumes from its disk lines on fewer or on
 * more ranks — each time with the failure-free result, bit for bit.
 */
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SkeletonProcessTest {
    private static final long STEPS = 200;
    private static String reference;

    private final String jobId = "skeleton-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @BeforeAll
    static void failureFreeReference() {
        reference = "result sha256=" + HeatSkeletonRank.reference(HeatBlocksConfig.test().toBuilder().steps(STEPS).build());
    }

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    /** One launch over the shared checkpoint folder; standard output and error go to the returned buffers. */
    private record Outcome(LaunchResult result, String out, String err) {
        String resultLine() {
            return out.lines().filter(l -> l.startsWith("result sha256=")).reduce((a, b) -> b).orElse("(no result line)");
        }

        String log() {
            return err + "\n--- stdout ---\n" + out;
        }
    }

    private Outcome launch(int ranks, long paceMillis, Consumer<LaunchSpec.Builder> customize) throws Exception {
        Path params = dir.resolve("params.json");
        // a checkpoint every 5 steps, each one on disk; fast failure detection
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("ckpt") + "\", \"SNAPSHOT_EVERY\": 5, \"DISK_EVERY\": 1,"
                + " \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": \"2s\", \"SLEEP_THREAD_TIME\": \"500ms\"}}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir).params(params)
                .application(new Application(HeatSkeletonRank.class.getName(), Optional.empty()))
                .arguments(List.of("test", "--steps", String.valueOf(STEPS), "--pace-ms", String.valueOf(paceMillis))).restarts(0)
                .grace(Duration.ofSeconds(10)).settle(Duration.ofSeconds(5))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8)).err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        customize.accept(b);
        LaunchResult r = Launcher.run(b.build());
        return new Outcome(r, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void oneRankKilledAtASeededStep_recoveredInsideTheJob_bitIdentical() throws Exception {
        int step = 20 + new Random(12).nextInt((int) STEPS - 40);
        Outcome o = launch(2, 0, b -> b.kill(new Fault.KillAtIteration(1, step)));
        assertThat(o.result().exitStatus()).as(o.log()).isZero();
        assertThat(o.result().relaunches()).as(o.log()).isZero();
        assertThat(o.result().onlineRecoveries()).as(o.log()).isEqualTo(1);
        assertThat(o.resultLine()).as(o.log()).isEqualTo(reference);
    }

    /** Runs a job of {@code ranks} ranks over the checkpoints whose every rank the launcher kills (SIGKILL) at step {@code at}. */
    private void killedAt(int ranks, long at) throws Exception {
        Outcome stopped = launch(ranks, 10, b -> {
            for (int r = 0; r < ranks; r++) {
                b.kill(new Fault.KillAtIteration(r, at));
            }
        });
        assertThat(stopped.result().exitStatus()).as(stopped.log()).isNotZero();
        assertThat(stopped.resultLine()).as("the job did not finish: " + stopped.log()).isEqualTo("(no result line)");
    }

    @Test
    void everyRankKilled_resumedOnFewerRanks_killedAgain_resumedOnMore_bitIdentical() throws Exception {
        killedAt(3, 40);
        killedAt(2, 100);
        Outcome resumed = launch(4, 0, b -> { });
        assertThat(resumed.result().exitStatus()).as(resumed.log()).isZero();
        assertThat(resumed.result().events("restored")).as(resumed.log()).isNotEmpty().allSatisfy(e -> assertThat(
                ((Number) e.fields().get("iteration")).longValue()).isBetween(85L, 100L));
        assertThat(resumed.resultLine()).as(resumed.log()).isEqualTo(reference);
    }
}
