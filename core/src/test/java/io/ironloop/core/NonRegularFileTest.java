package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.core.StoreCatalog.Problem;
import io.ironloop.core.StoreCatalog.VerifyReport;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (FIFO) or a symbolic link where the newest line's data file or commit record should be: restore falls
 * back to the previous line and the catalog reports the file, both promptly, where they used to block forever in
 * {@code open()} on the FIFO.
 */
class NonRegularFileTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    @TempDir
    Path dir;
    private final double[] state = new double[5_000];
    private final List<Path> fifos = new ArrayList<>();

    @BeforeEach
    void writeTwoLines() {
        try (CheckpointEngine e = open()) {
            for (int it = 1; it <= 2; it++) {
                java.util.Arrays.fill(state, it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
    }

    /** Wakes a reader a failing test left blocked on a FIFO: a read-write open never blocks on Linux. */
    @AfterEach
    void unblock() throws IOException {
        for (Path f : fifos) {
            try (FileChannel ignored = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // the open is enough
            }
        }
    }

    private CheckpointEngine open() {
        CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().chunkSize(8192).build(), Store.directory(dir));
        e.protect("state", Scope.LOCAL, state);
        return e;
    }

    private Path replaceWithFifo(String name) throws Exception {
        return replaceWithFifo(dir, name);
    }

    private Path replaceWithFifo(Path storeRoot, String name) throws Exception {
        Path p = storeRoot.resolve("rank-00000").resolve(name);
        Files.delete(p);
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not available: " + e.getMessage());
            return p;
        }
        assertThat(mk.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
        fifos.add(p);
        return p;
    }

    private void assertRestoresLineOne() {
        java.util.Arrays.fill(state, Double.NaN);
        long iteration = assertTimeoutPreemptively(TIMEOUT, () -> {
            try (CheckpointEngine e = open()) {
                return e.restore().orElseThrow().iteration();
            }
        });
        assertThat(iteration).isEqualTo(1);
        assertThat(state).containsOnly(1.0);
    }

    private List<Problem> verifyStore() {
        VerifyReport r = assertTimeoutPreemptively(TIMEOUT, () -> StoreCatalog.of(Store.directory(dir)).verifyStore());
        return r.problems();
    }

    @Test
    void restore_fifoInPlaceOfNewestCommitRecord_fallsBackPromptly() throws Exception {
        replaceWithFifo("line-000000000002.commit");

        assertRestoresLineOne();
        assertThat(verifyStore()).anySatisfy(p -> {
            assertThat(p.file()).isEqualTo("rank-00000/line-000000000002.commit");
            assertThat(p.message()).contains("named pipe (FIFO)");
        });
    }

    @Test
    void restore_fifoInPlaceOfNewestDataFile_fallsBackPromptly() throws Exception {
        replaceWithFifo("line-000000000002.ilc");

        assertRestoresLineOne();
        assertThat(verifyStore()).anySatisfy(p -> {
            assertThat(p.file()).isEqualTo("rank-00000/line-000000000002.ilc");
            assertThat(p.message()).contains("named pipe (FIFO)");
        });
    }

    @Test
    void restore_symbolicLinkInPlaceOfNewestDataFile_isNotFollowed() throws Exception {
        Path data = dir.resolve("rank-00000/line-000000000002.ilc");
        Path elsewhere = Files.move(data, dir.resolve("elsewhere.ilc"));
        Files.createSymbolicLink(data, elsewhere);

        assertRestoresLineOne();
        assertThat(verifyStore()).anySatisfy(p -> {
            assertThat(p.location()).isEqualTo("rank-00000/line-000000000002.ilc");
            assertThat(p.message()).contains("symbolic link");
        });
    }

    @Test
    void restore_fifoInPlaceOfAReferencedDataFile_failsPromptlyNamingIt() throws Exception {
        Path diffDir = dir.resolve("differential");
        EngineConfig config = EngineConfig.builder().chunkSize(8192).differential(true, 8).build();
        try (CheckpointEngine e = CheckpointEngine.open(config, Store.directory(diffDir))) {
            e.protect("state", Scope.LOCAL, state);
            for (int it = 1; it <= 2; it++) {
                state[0] = it;
                e.checkpoint(it);
                e.awaitDurable();
            }
            assertThat(e.lines()).last().satisfies(l -> assertThat(l.references()).contains("rank-00000/line-000000000001.ilc"));
        }
        replaceWithFifo(diffDir, "line-000000000001.ilc");

        Throwable thrown = assertTimeoutPreemptively(TIMEOUT, () -> {
            try (CheckpointEngine e = CheckpointEngine.open(config, Store.directory(diffDir))) {
                e.protect("state", Scope.LOCAL, state);
                return org.assertj.core.api.Assertions.catchThrowable(e::restore);
            }
        });
        assertThat(thrown).isInstanceOf(NoIntactCheckpointException.class);
        assertThat(thrown.getSuppressed()).anySatisfy(c -> assertThat(c.getMessage()).contains("rank-00000/line-000000000001.ilc")
                .contains("named pipe (FIFO)"));
    }
}
