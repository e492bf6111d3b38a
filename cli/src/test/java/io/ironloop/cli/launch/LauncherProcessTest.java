package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.cli.Main;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher as an operator runs it: {@code io.ironloop.cli.Main run …} in its own JVM, with real
 * signals sent to it.
 */
class LauncherProcessTest {
    private static final Duration START = Duration.ofSeconds(60);

    private final String jobId = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private Process launcher;
    /** The launcher JVM's java.io.tmpdir (where it writes its job secret), when a test sets one. */
    private Path launcherTmp;

    @TempDir
    Path dir;

    @AfterEach
    void killEverything() {
        JobProcesses.killTree(launcher);
        JobProcesses.killJob(jobId);
    }

    private void startLauncher(String... runArgs) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JobProcesses.SMALL_JVM);
        if (launcherTmp != null) {
            cmd.add("-Djava.io.tmpdir=" + launcherTmp);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--job", jobId,
                "--timeline"));
        JobProcesses.SMALL_JVM.forEach(o -> cmd.add("--jvm-opt=" + o));
        cmd.addAll(List.of(runArgs));
        launcher = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    private String out() throws IOException {
        return Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
    }

    private String err() throws IOException {
        return Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
    }

    private void awaitRanksIterating(int ranks) {
        await().atMost(START).until(() -> {
            String o = out();
            for (int r = 0; r < ranks; r++) {
                if (!o.contains("rank " + r + " attempt 0 iteration 3")) {
                    return false;
                }
            }
            return true;
        });
    }

    private int awaitExit(Duration timeout) throws InterruptedException {
        assertThat(launcher.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("launcher exited").isTrue();
        return launcher.exitValue();
    }

    private static long count(String text, String needle) {
        return text.lines().filter(l -> l.contains(needle)).count();
    }

    @Test
    void sigtermToLauncher_isForwardedToRanks_exits143WithoutRestart() throws Exception {
        startLauncher("-n", "2", "--restarts", "2", "--grace", "20s", "--", LoopApp.class.getName(),
                "iterations=100000", "sleep-ms=20");
        awaitRanksIterating(2);

        launcher.toHandle().destroy();

        assertThat(awaitExit(Duration.ofSeconds(30))).as(err()).isEqualTo(143);
        String err = err();
        assertThat(err).contains("received SIGTERM: forwarded it to ranks [0, 1]", "signal-forwarded");
        assertThat(count(err, "rank-exited       status=143 signal=SIGTERM")).isEqualTo(2);
        assertThat(count(err, "attempt-started")).as("no restart").isEqualTo(1);
        assertThat(out()).contains("rank 0 shutdown hook", "rank 1 shutdown hook");
        assertThat(JobProcesses.ranksOf(jobId)).isEmpty();
    }

    @Test
    void secondSignal_killsRanksAtOnce() throws Exception {
        startLauncher("-n", "2", "--grace", "120s", "--", LoopApp.class.getName(), "iterations=100000",
                "hang-on-exit-ms=120000");
        awaitRanksIterating(2);

        launcher.toHandle().destroy();
        await().atMost(Duration.ofSeconds(20)).until(() -> out().contains("rank 0 shutdown hook")
                && out().contains("rank 1 shutdown hook"));
        assertThat(launcher.isAlive()).as("still waiting for the slow save").isTrue();
        launcher.toHandle().destroy();

        assertThat(awaitExit(Duration.ofSeconds(20))).as(err()).isEqualTo(143);
        assertThat(err()).contains("again: killing the ranks now (SIGKILL)");
        assertThat(count(err(), "rank-exited       status=137 signal=SIGKILL")).isEqualTo(2);
        assertThat(JobProcesses.ranksOf(jobId)).isEmpty();
    }

    @Test
    void sigintToLauncher_isForwardedAsSigint_exits130() throws Exception {
        Assumptions.assumeFalse(JobProcesses.sigintIgnored(),
                "SIGINT is ignored in this process tree (started as a background job), so it cannot be tested here");
        startLauncher("-n", "2", "--restarts", "1", "--grace", "20s", "--", LoopApp.class.getName(),
                "iterations=100000", "sleep-ms=20");
        awaitRanksIterating(2);

        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(launcher.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(awaitExit(Duration.ofSeconds(30))).as(err()).isEqualTo(130);
        assertThat(err()).contains("received SIGINT: forwarded it to ranks [0, 1]");
        assertThat(count(err(), "rank-exited       status=130 signal=SIGINT")).isEqualTo(2);
        assertThat(count(err(), "attempt-started")).isEqualTo(1);
    }

    @Test
    void kill9OfLauncher_leavesNoRankBehind() throws Exception {
        startLauncher("-n", "2", "--restarts", "3", "--", LoopApp.class.getName(), "iterations=100000", "sleep-ms=20");
        awaitRanksIterating(2);
        assertThat(JobProcesses.ranksOf(jobId)).hasSize(2);

        launcher.toHandle().destroyForcibly();

        assertThat(awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
        await().atMost(Duration.ofSeconds(10)).until(() -> JobProcesses.ranksOf(jobId).isEmpty());
    }

    @Test
    void kill9OfLauncher_stoppedRankIsKilledToo() throws Exception {
        // a stopped rank runs no code, so its own watchdog cannot halt it: the launcher's reaper process must
        startLauncher("-n", "2", "--", LoopApp.class.getName(), "iterations=100000", "sleep-ms=20");
        awaitRanksIterating(2);
        ProcessHandle stopped = JobProcesses.rankOf(jobId, 1).orElseThrow();
        JobProcesses.signal(stopped.pid(), "STOP");
        await().atMost(Duration.ofSeconds(5)).until(() -> JobProcesses.isStopped(stopped.pid()));

        launcher.toHandle().destroyForcibly();

        assertThat(awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
        await().atMost(Duration.ofSeconds(10)).until(() -> !stopped.isAlive() && JobProcesses.ranksOf(jobId).isEmpty());
    }

    @Test
    void kill9OfLauncher_leavesSecret_nextLauncherSweepsOnlyStaleOnesOfItsNaming() throws Exception {
        launcherTmp = Files.createDirectory(dir.resolve("tmp"));
        Path operators = Files.writeString(launcherTmp.resolve("operator.secret"), "0123456789abcdef0123456789abcdef");
        long livePid = ProcessHandle.current().pid();
        Path live = Files.writeString(launcherTmp.resolve("ironloop-launcher-" + livePid + "-job-1.secret"), "x");
        startLauncher("-n", "1", "--", LoopApp.class.getName(), "iterations=100000", "sleep-ms=20");
        awaitRanksIterating(1);
        long deadPid = launcher.pid();
        List<Path> secrets;
        try (var files = Files.list(launcherTmp)) {
            secrets = files.filter(p -> p.getFileName().toString().startsWith("ironloop-launcher-" + deadPid + "-" + jobId + "-"))
                    .toList();
        }
        assertThat(secrets).hasSize(1);

        launcher.toHandle().destroyForcibly();
        assertThat(awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
        await().atMost(Duration.ofSeconds(10)).until(() -> JobProcesses.ranksOf(jobId).isEmpty());
        assertThat(secrets.get(0)).as("kill -9 runs no clean-up in the launcher").exists();

        startLauncher("-n", "1", "--", LoopApp.class.getName(), "iterations=2", "sleep-ms=1");
        assertThat(awaitExit(Duration.ofSeconds(60))).as(err()).isZero();

        assertThat(secrets.get(0)).as("stale secret of the dead launcher").doesNotExist();
        assertThat(err()).contains("removed 1 job secret(s) left in " + launcherTmp);
        assertThat(operators).as("another naming").exists();
        assertThat(live).as("a live launcher's").exists();
        try (var files = Files.list(launcherTmp)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .as("the second launcher removed its own secret too").containsExactly(live.getFileName().toString(), "operator.secret");
        }
    }
}
