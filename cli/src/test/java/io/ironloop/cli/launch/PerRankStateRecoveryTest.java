package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.examples.heat.HeatRank;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-rank state (a subdomain of a 1-D rod and a per-rank counter, {@link HeatRank}) on 3 real rank JVMs
 * under the launcher: rank 1 is killed (SIGKILL) at an iteration, the job restarts, and every rank restores
 * its state at the same iteration as the global state — the counter total and the rod bit-identical to the
 * failure-free run. Before the fix the killed rank had no local line, canRecoverLocal() answered differently
 * on different ranks, and the total came out short without a warning.
 */
class PerRankStateRecoveryTest {
    private static final int CELLS = 1000;
    private static final int STEPS = 30;

    private final String jobId = "heat-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    @Test
    void killRankOneAtIteration10_restart_everyRankRestoresTheSameIteration_totalAndRodBitIdentical() throws Exception {
        Path params = Files.writeString(dir.resolve("params.json"), """
                {"FT_FOLDER": "ft", "CHECKPOINTING_GLOBAL_ITERATION": 1,
                 "TRIGGER_HEARTBEAT_MONITORING": {"TIME_MAX_WAIT": 5, "SLEEP_THREAD_TIME": 1}}
                """);
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(3).jobId(jobId).workingDirectory(dir).restarts(2)
                .application(new Application(HeatRank.class.getName(), Optional.empty()))
                .arguments(List.of(Integer.toString(CELLS), Integer.toString(STEPS), "40")).params(params)
                .backoff(Duration.ofMillis(100)).grace(Duration.ofSeconds(20)).kill(new Fault.KillAtIteration(1, 10))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8)).err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        LaunchResult r = Launcher.run(b.build());

        String story = err.toString(StandardCharsets.UTF_8);
        assertThat(r.exitStatus()).as(story).isZero();
        assertThat(r.attempts()).as(story).isEqualTo(2);
        String result = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("heat updates="))
                .map(l -> l.substring(l.indexOf("heat updates="))).reduce((a, c) -> c).orElse("none");
        assertThat(result).as(story).isEqualTo(HeatRank.simulate(3, CELLS, STEPS)).startsWith("heat updates=90000 ");
        List<Long> localRestores = r.events("restored-local").filter(e -> e.attempt() == 1)
                .map(e -> e.longField("iteration").orElse(-1)).toList();
        assertThat(localRestores).as("every rank restored its state at one iteration").hasSize(3).containsOnly(localRestores.get(0));
        assertThat(localRestores.get(0)).isBetween(9L, 10L);
    }
}
