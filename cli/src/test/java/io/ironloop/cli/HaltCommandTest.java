package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.launcher.HaltRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ironloop halt DIR}: the request it leaves in the folder. The launcher's side, a real job stopping on it,
 * is the launcher module's {@code HaltTest}.
 */
class HaltCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void halt_leavesTheRequestedModeInTheFolder_andCancelWithdrawsIt() throws Exception {
        assertThat(run("halt", dir.toString())).isZero();
        assertThat(HaltRequest.readFrom(dir)).contains(HaltRequest.afterNextCheckpoint());
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("stops after the next checkpoint");

        assertThat(run("halt", dir.toString(), "--now")).isZero();
        assertThat(HaltRequest.readFrom(dir)).contains(HaltRequest.now());

        Instant before = Instant.now();
        assertThat(run("halt", dir.toString(), "--at", "+10m")).isZero();
        Instant at = HaltRequest.readFrom(dir).orElseThrow().at().orElseThrow();
        assertThat(Duration.between(before, at)).isBetween(Duration.ofMinutes(10), Duration.ofMinutes(11));
        assertThat(run("halt", dir.toString(), "--at", "2026-11-24T13:00:00Z")).isZero();
        assertThat(Files.readString(HaltRequest.file(dir))).isEqualTo("at 2026-11-24T13:00:00Z\n");

        assertThat(run("halt", dir.toString(), "--cancel")).isZero();
        assertThat(Files.exists(HaltRequest.file(dir))).isFalse();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("halt request withdrawn");
    }

    @Test
    void halt_badTimeOrTwoModes_isAUsageError_andWritesNothing() {
        assertThat(run("halt", dir.toString(), "--at", "noon")).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ISO-8601 instant", "+10m");
        assertThat(run("halt", dir.toString(), "--now", "--cancel")).isEqualTo(Main.USAGE);
        assertThat(Files.exists(HaltRequest.file(dir))).isFalse();
    }
}
