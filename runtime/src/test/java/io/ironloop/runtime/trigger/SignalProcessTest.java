package io.ironloop.runtime.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real child JVMs, real signals from {@code kill}, real fsync. */
class SignalProcessTest {
    @TempDir
    Path dir;

    private record Outcome(int status, boolean marker, String log) {
    }

    private Outcome signalChild(String configured, String sent) throws Exception {
        Path marker = dir.resolve("marker");
        Path ready = dir.resolve("ready");
        Path log = dir.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), SignalChildMain.class.getName(),
                marker.toString(), ready.toString(), configured))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(ready) || !child.isAlive());
            assertThat(child.isAlive()).as("child started; its log: %s", read(log)).isTrue();
            Process kill = new ProcessBuilder("kill", "-" + sent, Long.toString(child.pid())).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exited; its log: %s", read(log)).isTrue();
            return new Outcome(child.exitValue(), Files.exists(marker), read(log));
        } finally {
            ProcessHandle.of(child.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    @Test
    void sigterm_configured_savesDurablyThenExits143() throws Exception {
        Outcome outcome = signalChild("TERM,INT", "TERM");
        assertThat(outcome.marker()).as(outcome.log()).isTrue();
        assertThat(Files.readString(dir.resolve("marker"))).contains("SignalReceived[signal=TERM, exitStatus=143");
        assertThat(outcome.status()).as(outcome.log()).isEqualTo(143);
    }

    @Test
    void sigusr1_configured_savesThenExits138() throws Exception {
        Outcome outcome = signalChild("TERM,USR1", "USR1");
        assertThat(outcome.marker()).as(outcome.log()).isTrue();
        assertThat(outcome.status()).as(outcome.log()).isEqualTo(138);
    }

    @Test
    void sigusr2_notConfigured_defaultJvmBehaviourWithoutSave() throws Exception {
        // HotSpot uses SIGUSR2 internally: without a handler the VM aborts (status 134), it does not save or exit 140.
        Outcome outcome = signalChild("TERM,INT", "USR2");
        assertThat(outcome.marker()).as(outcome.log()).isFalse();
        assertThat(outcome.status()).as(outcome.log()).isNotEqualTo(140).isNotZero();
    }
}
