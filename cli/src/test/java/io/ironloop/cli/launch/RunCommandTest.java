package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop run}: help and usage errors (exit 2), found before any rank starts. */
class RunCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void help_describesOptionsEnvironmentAndExitStatus() {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--restarts", "--fail", "--preempt", "--iterations",
                "--jvm-opt", "--cp", "--params", "--grace", "IRONLOOP_PEERS", "IRONLOOP_SECRET_FILE", "IRONLOOP_ATTEMPT",
                "IRONLOOP_LAUNCHER", "130 / 143", "--spares", "--fake-hosts", "IRONLOOP_SPARES", "IRONLOOP_HOST",
                "recovery-impossible");
    }

    @Test
    void failPastIterations_isUsageError() {
        assertThat(run("run", "-n", "2", "--iterations", "5", "--fail", "1@7", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--fail 1@7 is past the last iteration (5, from --iterations)");
    }

    @Test
    void faultOnMissingRank_isUsageError() {
        assertThat(run("run", "-n", "2", "--preempt", "2@5", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--preempt 2@5s: rank 2 does not exist in a job of 2 ranks");
    }

    @Test
    void negativeSparesOrBadFakeHosts_isOneLineUsageError() {
        assertThat(run("run", "-n", "2", "--spares", "-1", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err().lines().toList()).as("the message in one line, then the usual hint; no stack trace")
                .containsExactly("ironloop: --spares must not be negative, got -1", "Run 'ironloop run --help' for usage.");
        err.reset();
        assertThat(run("run", "-n", "2", "--fake-hosts", "0", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--fake-hosts must be at least 1, got 0");
        err.reset();
        assertThat(run("run", "-n", "2", "--spares", "1", "--fake-hosts", "4", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--fake-hosts 4 is more than the 3 rank JVMs");
        err.reset();
        assertThat(run("run", "-n", "2", "--spares", "1", "--fail", "3@2", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--fail 3@2: rank 3 does not exist in a job of 3 ranks (0-2, spares included)");
    }

    @Test
    void malformedFault_isUsageError() {
        assertThat(run("run", "-n", "2", "--fail", "1-3", "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("--fail '1-3': expected RANK@ITER");
    }

    @Test
    void unknownMainClass_isUsageError() {
        assertThat(run("run", "-n", "1", "--", "com.example.DoesNotExist")).isEqualTo(2);
        assertThat(err()).contains("main class com.example.DoesNotExist is not on the rank class path");
    }

    @Test
    void secretFileReadableByOthers_isRefused() throws Exception {
        Path secret = dir.resolve("s");
        Files.writeString(secret, "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(run("run", "-n", "1", "--secret-file", secret.toString(), "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("group and others must have no access", "chmod 600");
    }

    @Test
    void missingParamsFile_isUsageError() {
        assertThat(run("run", "-n", "1", "--params", dir.resolve("none.json").toString(), "--",
                LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("does not exist or is not readable");
    }

    @Test
    void unknownKeyInParamsFile_isOneUsageLineWithSuggestion_beforeAnyRankStarts() throws Exception {
        Path params = dir.resolve("p.json");
        Files.writeString(params, "{\"CHECKPOINTING_GLOBAL_ITERATON\": 1,"
                + " \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WIAT\": 5}}");

        assertThat(run("run", "-n", "2", "--restarts", "3", "--params", params.toString(), "--",
                LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).startsWith("ironloop: unknown parameter 'CHECKPOINTING_GLOBAL_ITERATON' in parameter file "
                + params).contains("did you mean 'CHECKPOINTING_GLOBAL_ITERATION'?").doesNotContain("[0]", "[1]", "\tat ");
        assertThat(err().lines()).hasSize(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void badValueInParamsFile_isUsageError() throws Exception {
        Path params = dir.resolve("p.json");
        Files.writeString(params, "{\"CHECKPOINTING_GLOBAL_ITERATION\": \"often\"}");

        assertThat(run("run", "-n", "2", "--params", params.toString(), "--", LoopApp.class.getName())).isEqualTo(2);
        assertThat(err()).contains("bad value for CHECKPOINTING_GLOBAL_ITERATION").doesNotContain("[0]");
    }
}
