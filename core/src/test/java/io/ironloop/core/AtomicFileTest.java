package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AtomicFile}, the one crash-consistent replace (stores and the runtime's completion record): a real
 * JVM replacing a file in a loop is killed with SIGKILL at seeded-random moments, and the file is always
 * one complete version, newer after every kill.
 */
class AtomicFileTest {
    @TempDir
    Path dir;

    static void write(Path file, int version) throws IOException {
        AtomicFile.replace(file, AtomicFileMain.content(version));
    }

    /** The version the file holds, checking that it is complete. */
    static int versionOf(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int v = ByteBuffer.wrap(bytes).getInt();
        if (!java.util.Arrays.equals(bytes, AtomicFileMain.content(v))) {
            throw new AssertionError(file + " holds a torn version " + v + " (" + bytes.length + " bytes)");
        }
        return v;
    }

    @Test
    void replace_newDirectoryThenExistingFile_replacedAndNoTemporaryLeft() throws Exception {
        Path file = dir.resolve("a").resolve("b").resolve("complete.json");
        AtomicFile.replace(file, "one".getBytes(StandardCharsets.UTF_8));
        AtomicFile.replace(file, "two".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readString(file)).isEqualTo("two");
        assertThat(AtomicFile.temporary(file)).doesNotExist().hasFileName("complete.json.tmp");
        assertThat(AtomicFile.delete(file)).isTrue();
        assertThat(AtomicFile.delete(file)).isFalse();
        assertThat(file).doesNotExist();
    }

    @Test
    void replace_targetIsADirectory_throwsAndLeavesNoTemporary() throws Exception {
        Path target = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(target.resolve("inside"), "x");
        assertThatThrownBy(() -> AtomicFile.replace(target, new byte[] {1})).isInstanceOf(IOException.class);
        assertThat(AtomicFile.temporary(target)).doesNotExist();
        assertThat(target.resolve("inside")).hasContent("x");
    }

    @Test
    void replace_killNineAtRandomMoments_fileIsAlwaysOneCompleteVersion() throws Exception {
        Random rnd = new Random(20261123);
        Path file = dir.resolve("record");
        int last = 0;
        for (int kill = 0; kill < 4; kill++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    AtomicFileMain.class.getName(), file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                byte[] ready = child.getInputStream().readNBytes(5);
                assertThat(new String(ready, StandardCharsets.US_ASCII)).isEqualTo("ready");
                TimeUnit.MILLISECONDS.sleep(rnd.nextInt(50, 300)); // the random moment of the kill, not synchronisation
            } finally {
                child.destroyForcibly();
            }
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
            int v = versionOf(file);
            assertThat(v).as("kill %d: newer than before the child started", kill).isGreaterThan(last);
            last = v;
        }
        assertThat(last).isGreaterThan(1);
    }
}
