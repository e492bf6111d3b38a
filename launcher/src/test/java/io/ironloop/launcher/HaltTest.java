package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop halt DIR}: a request in the job's folder stops a running job cleanly, without a relaunch. */
class HaltTest {
    private final String jobId = "h-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    /** Starts 2 ranks of {@link LoopApp} (a "saved" of level global every 2 iterations) over folder {@code dir}. */
    private CompletableFuture<LaunchResult> start() {
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(2).jobId(jobId).workingDirectory(dir).folder(dir)
                .application(new Application(LoopApp.class.getName(), Optional.empty()))
                .arguments(List.of("iterations=100000", "sleep-ms=50")).restarts(3).backoff(Duration.ofMillis(100))
                .grace(Duration.ofSeconds(10)).settle(Duration.ofSeconds(1))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8))
                .err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        LaunchSpec spec = b.build();
        return CompletableFuture.supplyAsync(() -> Launcher.run(spec));
    }

    private void awaitIteration(int iteration) {
        await().atMost(Duration.ofSeconds(60)).until(() -> out.toString(StandardCharsets.UTF_8)
                .contains("rank 1 attempt 0 iteration " + iteration + "\n"));
    }

    @Test
    void afterNextCheckpoint_stopsOnceTheNextSaveIsReported_exitsZeroWithoutRelaunch_andRemovesTheRequest() throws Exception {
        CompletableFuture<LaunchResult> job = start();
        awaitIteration(3);

        HaltRequest.afterNextCheckpoint().writeTo(dir);
        LaunchResult r = job.get(90, TimeUnit.SECONDS);

        assertThat(r.exitStatus()).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(r.attempts()).as("a halted job is not relaunched").isEqualTo(1);
        assertThat(r.summary()).contains("halted after the checkpoint at iteration", "run the same command again");
        assertThat(r.events(TimelineEvent.RESTART_SCHEDULED)).isEmpty();
        TimelineEvent requested = r.events(TimelineEvent.HALT_REQUESTED).findFirst().orElseThrow();
        TimelineEvent halting = r.events(TimelineEvent.HALTING).findFirst().orElseThrow();
        // the checkpoint it waited for: the first save reported after the request was seen, which names its iteration
        TimelineEvent checkpoint = r.events("saved").filter(e -> !e.time().isBefore(requested.time())).findFirst().orElseThrow();
        assertThat(halting.fields().get("reason")).isEqualTo("after the checkpoint at iteration "
                + checkpoint.fields().get("iteration") + " as requested");
        assertThat(halting.time()).isAfter(checkpoint.time().minusMillis(1)); // (LoopApp's ranks do not move in step:
        // the other rank may still report a save or two on its way out, so nothing is asserted about later ones)
        assertThat(Files.exists(HaltRequest.file(dir))).as("the request is done").isFalse();
    }

    @Test
    void now_orAnInstantPassed_stopsAtOnce_butAMalformedRequestIsIgnored() throws Exception {
        CompletableFuture<LaunchResult> job = start();
        awaitIteration(2);
        Files.writeString(HaltRequest.file(dir), "soon\n");
        awaitIteration(30); // still running, well past a poll
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot read the halt request", "not a halt request: 'soon'");

        HaltRequest.at(Instant.now().minusSeconds(1)).writeTo(dir);
        LaunchResult r = job.get(90, TimeUnit.SECONDS);

        assertThat(r.exitStatus()).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.summary()).containsPattern("halted at \\S+Z as requested");
        assertThat(Files.exists(HaltRequest.file(dir))).isFalse();
    }

    @Test
    void request_roundTripsThroughItsFile_andRejectsWhatIsNotOne() throws Exception {
        Instant at = Instant.parse("2026-11-24T13:00:00Z");
        for (HaltRequest h : List.of(HaltRequest.now(), HaltRequest.afterNextCheckpoint(), HaltRequest.at(at))) {
            h.writeTo(dir);
            assertThat(HaltRequest.readFrom(dir)).contains(h);
        }
        assertThat(Files.readString(HaltRequest.file(dir))).isEqualTo("at 2026-11-24T13:00:00Z\n");
        assertThat(HaltRequest.removeFrom(dir)).isTrue();
        assertThat(HaltRequest.readFrom(dir)).isEmpty();
        assertThatThrownBy(() -> HaltRequest.parse("at noon")).hasMessageContaining("not an ISO-8601 instant");
        assertThatThrownBy(() -> HaltRequest.afterNextCheckpoint().writeTo(dir.resolve("missing")))
                .hasMessageContaining("give the job's FT_FOLDER");
    }
}
