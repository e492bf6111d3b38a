package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.Scope;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real crashes: a child JVM checkpoints in a loop and is killed with SIGKILL at seeded random moments.
 * After every kill, restore must return the newest complete line, bit-for-bit.
 */
class CrashTest {
    private static final int KILLS = 20;
    @TempDir
    Path dir;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(p -> p.toHandle().destroyForcibly());
    }

    @Test
    void restore_afterKillNineAtRandomMoments_returnsNewestCompleteLineBitForBit() throws Exception {
        Random rnd = new Random(20261121);
        int midWrite = 0;
        long lastRestored = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    CrashLoopMain.class.getName(), dir.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            children.add(child);
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertThat(ready).as("child %d started", kill).startsWith("ready ");
            assertThat(Long.parseLong(ready.substring(6))).as("child resumed from the newest line").isEqualTo(lastRestored);
            TimeUnit.MILLISECONDS.sleep(rnd.nextInt(30, 400)); // the random moment of the kill, not synchronisation
            child.toHandle().destroyForcibly();
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
            if (hasTemporary()) {
                midWrite++;
            }
            lastRestored = verifyNewestLine();
        }
        assertThat(midWrite).as("kills that landed mid-write").isGreaterThan(0);
        assertThat(lastRestored).as("progress was made").isGreaterThan(KILLS);
    }

    @Test
    void open_seriesHeldByAnotherProcess_isRefusedUntilThatProcessDies() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                CrashLoopMain.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        children.add(child);
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).startsWith("ready ");
        assertThatThrownBy(() -> CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir)))
                .isInstanceOf(StoreLockedException.class)
                .hasMessageContaining("rank-00000")
                .hasMessageContaining("pid " + child.pid());
        child.toHandle().destroyForcibly();
        assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            assertThat(e.config().series()).as("the lock died with its holder").isEqualTo("rank-00000");
        }
    }

    private boolean hasTemporary() throws Exception {
        Path series = dir.resolve("rank-00000");
        if (!Files.isDirectory(series)) {
            return false;
        }
        try (Stream<Path> s = Files.list(series)) {
            return s.anyMatch(p -> p.toString().endsWith(".tmp"));
        }
    }

    private long verifyNewestLine() {
        double[] state = new double[CrashLoopMain.LENGTH];
        LongCell iteration = new LongCell(-1);
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            e.protect("iteration", Scope.GLOBAL, iteration);
            e.protect("state", Scope.LOCAL, state);
            List<LineInfo> lines = e.lines();
            long newest = lines.isEmpty() ? 0 : lines.get(lines.size() - 1).iteration();
            e.restore();
            assertThat(iteration.get()).isEqualTo(lines.isEmpty() ? -1 : newest);
            for (int i = 0; i < state.length; i++) {
                if (state[i] != (lines.isEmpty() ? 0 : CrashLoopMain.expected(newest, i))) {
                    throw new AssertionError("element " + i + " of restored iteration " + newest + " is " + state[i]);
                }
            }
            return lines.isEmpty() ? 0 : newest;
        }
    }
}
