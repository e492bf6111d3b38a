package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.examples.circulation.MatrixPower;
import io.ironloop.examples.circulation.MatrixPowerSkeleton;
import io.ironloop.examples.circulation.MatrixPowerSkeletonRank;
import io.ironloop.examples.skeleton.HeatSkeletonRank;
import io.ironloop.examples.skeleton.SkeletonRankMain;
import io.ironloop.examples.swing.GasStorage;
import io.ironloop.examples.swing.GasStorageSkeleton;
import io.ironloop.examples.swing.GasStorageSkeletonRank;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples on the skeleton in real rank JVMs under the launcher: a rank of the heat example killed with SIGKILL at
 * a seeded step is recovered inside the job, and a job whose every rank is killed (heat; the matrix power by
 * circulation; the gas storage, whose subdomains change every step) resumes from its disk lines on fewer or on more
 * ranks — each time with the failure-free result, bit for bit.
 */
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SkeletonProcessTest {
    private static final long STEPS = 200;
    private static String reference;
    private static String circulationReference;
    private static String swingReference;
    private static final App HEAT = new App(HeatSkeletonRank.class.getName(), List.of("test", "--steps", String.valueOf(STEPS)));
    private static final App CIRCULATION = new App(MatrixPowerSkeletonRank.class.getName(), List.of("test"));
    private static final App SWING = new App(GasStorageSkeletonRank.class.getName(), List.of("test"));

    private final String jobId = "skeleton-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @BeforeAll
    static void failureFreeReference() {
        reference = "result sha256=" + HeatSkeletonRank.reference(HeatBlocksConfig.test().toBuilder().steps(STEPS).build());
        circulationReference = "result sha256=" + SkeletonRankMain.reference(new MatrixPowerSkeleton(MatrixPower.preset("test", 0)));
        swingReference = "result sha256=" + SkeletonRankMain.reference(new GasStorageSkeleton(GasStorage.preset("test", 0)));
    }

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    /** A rank program and its arguments. */
    private record App(String mainClass, List<String> arguments) {
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
        return launch(HEAT, ranks, paceMillis, customize);
    }

    private Outcome launch(App app, int ranks, long paceMillis, Consumer<LaunchSpec.Builder> customize) throws Exception {
        Path params = dir.resolve("params.json");
        // a checkpoint every 5 steps, each one on disk; fast failure detection
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("ckpt") + "\", \"SNAPSHOT_EVERY\": 5, \"DISK_EVERY\": 1,"
                + " \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": \"2s\", \"SLEEP_THREAD_TIME\": \"500ms\"}}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir).params(params)
                .application(new Application(app.mainClass(), Optional.empty()))
                .arguments(Stream.concat(app.arguments().stream(), Stream.of("--pace-ms", String.valueOf(paceMillis))).toList()).restarts(0)
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
        killedAt(HEAT, ranks, at);
    }

    private void killedAt(App app, int ranks, long at) throws Exception {
        Outcome stopped = launch(app, ranks, 10, b -> {
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

    @Test
    void circulation_everyRankKilledAtASeededStep_resumedOnFewerRanks_bitIdentical() throws Exception {
        long steps = MatrixPower.preset("test", 0).steps();
        long step = 8 + new Random(21).nextInt((int) steps - 12);
        killedAt(CIRCULATION, 3, step);
        Outcome resumed = launch(CIRCULATION, 2, 0, b -> { });
        assertThat(resumed.result().exitStatus()).as(resumed.log()).isZero();
        assertThat(resumed.result().events("restored")).as(resumed.log()).isNotEmpty().allSatisfy(e -> assertThat(
                ((Number) e.fields().get("iteration")).longValue()).isBetween(step - 6, step));
        assertThat(resumed.resultLine()).as(resumed.log()).isEqualTo(circulationReference);
    }

    @Test
    void swing_everyRankKilledAtASeededStep_resumedOnMoreRanks_bitIdentical() throws Exception {
        long step = 8 + new Random(34).nextInt(GasStorage.preset("test", 0).steps() - 12);
        killedAt(SWING, 2, step);
        Outcome resumed = launch(SWING, 4, 0, b -> { });
        assertThat(resumed.result().exitStatus()).as(resumed.log()).isZero();
        assertThat(resumed.result().events("restored")).as(resumed.log()).isNotEmpty().allSatisfy(e -> assertThat(
                ((Number) e.fields().get("iteration")).longValue()).isBetween(step - 6, step));
        assertThat(resumed.resultLine()).as(resumed.log()).isEqualTo(swingReference);
    }
}
