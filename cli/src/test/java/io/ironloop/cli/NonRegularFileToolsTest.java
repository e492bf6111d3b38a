package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK0;
import static io.ironloop.cli.KeptCheckpoint.RANK1;
import static io.ironloop.cli.KeptCheckpoint.commit;
import static io.ironloop.cli.KeptCheckpoint.data;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.cli.KeptCheckpoint.Run;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools on a store where named pipes (made with {@code mkfifo}) stand in place of a data file that later lines
 * reference and of a commit record: each tool ends promptly and reports the files, where it used to block forever
 * opening a FIFO.
 */
class NonRegularFileToolsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    @TempDir
    static Path dir;
    static Path store;
    static final List<Path> FIFOS = new ArrayList<>();

    @BeforeAll
    static void storeWithFifos() throws Exception {
        store = KeptCheckpoint.create(dir.resolve("kept")).copyTo(dir.resolve("fifos"));
        for (String name : List.of(data(RANK0, 1), commit(RANK1, 2))) {
            Path p = store.resolve(name);
            Files.delete(p);
            Process mk;
            try {
                mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
            } catch (IOException e) {
                assumeTrue(false, "mkfifo is not available: " + e.getMessage());
                return;
            }
            assertThat(mk.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(mk.exitValue()).isZero();
            FIFOS.add(p);
        }
    }

    /** Wakes any reader a failing test left blocked on a FIFO: a read-write open never blocks on Linux. */
    @AfterAll
    static void unblock() throws IOException {
        for (Path f : FIFOS) {
            try (FileChannel ignored = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // the open is enough
            }
        }
    }

    private static Run promptly(Object... args) {
        return assertTimeoutPreemptively(TIMEOUT, () -> run(args), () -> "ironloop " + List.of(args) + " blocked");
    }

    @Test
    void verify_storeWithFifos_exitsOneNamingEach() {
        Run r = promptly("verify", store);

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("BAD " + data(RANK0, 1) + ": offset 0: is a named pipe (FIFO), not a regular file")
                .contains("BAD " + commit(RANK1, 2) + ": ").contains("cannot be opened");
    }

    @Test
    void verify_lineReferencingAFifo_exitsOneNamingIt() {
        Run r = promptly("verify", store.resolve(commit(RANK0, 3)));

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains(data(RANK0, 1)).contains("named pipe (FIFO)");
    }

    @Test
    void ls_storeWithFifos_listsThemAsInvalid() {
        Run r = promptly("ls", store);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(commit(RANK1, 2) + ": ").contains("named pipe (FIFO)");
    }

    @Test
    void inspect_lineReferencingAFifo_ends() {
        Run r = promptly("inspect", store.resolve(data(RANK0, 3)));

        assertThat(r.exit()).as(r.out() + r.err()).isIn(0, 1);
    }

    @Test
    void inspect_theFifoItself_isAUsageError() {
        Run r = promptly("inspect", store.resolve(data(RANK0, 1)));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("neither a directory nor a checkpoint file");
    }

    @Test
    void export_lineReferencingAFifo_exitsOneNamingIt() {
        Run r = promptly("export", store.resolve(data(RANK0, 3)), "--format", "npy", "--out", dir.resolve("out"));

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.err()).contains(data(RANK0, 1)).contains("named pipe (FIFO)");
    }
}
