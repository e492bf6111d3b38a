package io.ironloop.examples.heat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "complete program" of the engine listing, as a real program: a JVM running
 * {@link HeatDiffusion} is killed with SIGKILL after a seeded-random checkpoint, and a second JVM over the
 * same folder resumes from the newest complete line and prints the failure-free result, bit for bit.
 */
class HeatDiffusionTest {
    private static final int CELLS = 1 << 18;
    private static final int STEPS = 400;
    private static final int EVERY = 10;

    @TempDir
    Path dir;

    private static ProcessBuilder program(Path folder) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                HeatDiffusion.class.getName(), folder.toString(), String.valueOf(CELLS), String.valueOf(STEPS), String.valueOf(EVERY));
    }

    @Test
    void run_killedAfterACheckpointAndStartedAgain_resumesAndEndsBitIdentical() throws Exception {
        String reference = HeatDiffusion.run(dir.resolve("reference"), CELLS, STEPS, EVERY);
        int killAfter = EVERY * (1 + new Random(13).nextInt(STEPS / EVERY / 2)); // a checkpoint in the first half

        Path folder = dir.resolve("run");
        Process first = program(folder).redirectOutput(dir.resolve("first.out").toFile()).start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(first.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null && !line.equals("checkpointed step " + killAfter)) {
                // progress lines before the checkpoint we wait for
            }
            assertThat(line).as("the first run reached checkpoint " + killAfter).isNotNull();
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
        }
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).as("killed, not finished").isEqualTo(137);
        assertThat(Files.readString(dir.resolve("first.out"))).doesNotContain("result");

        Process second = program(folder).redirectErrorStream(false).start();
        List<String> progress = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(second.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                if (line.startsWith("resumed")) {
                    progress.add(line);
                }
            }
        }
        String stdout = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isZero();
        assertThat(progress).hasSize(1);
        long resumedAt = Long.parseLong(progress.get(0).substring("resumed at step ".length()));
        assertThat(resumedAt).as("the newest complete line, at or after the checkpoint seen").isGreaterThanOrEqualTo(killAfter)
                .isLessThan(STEPS).isEqualTo(resumedAt / EVERY * EVERY);
        assertThat(stdout.strip()).isEqualTo("result sha256=" + reference);
    }

    @Test
    void main_withoutFolder_printsUsageAndExits2() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), HeatDiffusion.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("usage: HeatDiffusion FOLDER");
    }
}
