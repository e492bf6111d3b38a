package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full disk fails the checkpoint being written, clearly, and never harms the previous line. */
class DiskFullTest {
    @TempDir
    Path dir;

    @Test
    void checkpoint_storeRunsOutOfSpaceMidWrite_previousLineIntactAndErrorClear() throws IOException {
        FullAfter store = new FullAfter(Store.directory(dir), 1_000_000); // room for line 1 (400 KB, written in one call)
        double[] state = new double[50_000];
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), store)) {
            e.protect("state", Scope.LOCAL, state);
            java.util.Arrays.fill(state, 1.0);
            e.checkpoint(1);
            e.awaitDurable();
            store.budget = 100_000;
            java.util.Arrays.fill(state, 2.0);
            e.checkpoint(2);
            assertThatThrownBy(e::awaitDurable).isInstanceOf(CheckpointFailedException.class)
                    .hasMessageContaining("No space left on device").hasMessageContaining("previous line 1");
            assertThat(e.lines()).extracting(LineInfo::iteration).containsExactly(1L);
        }
        try (var files = Files.list(dir.resolve("rank-00000"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            e.protect("state", Scope.LOCAL, state);
            assertThat(e.restore().orElseThrow().iteration()).isEqualTo(1);
            assertThat(state).containsOnly(1.0);
        }
    }

    @Test
    void checkpoint_realTmpfsFills_previousLineIntact() throws Exception {
        Path mount = dir.resolve("small");
        Files.createDirectories(mount);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString()) == 0, "tmpfs cannot be mounted here");
        try {
            double[] state = new double[90_000];
            try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().retainLines(2).build(), Store.directory(mount))) {
                e.protect("state", Scope.LOCAL, state);
                for (int it = 1; it <= 2; it++) {
                    java.util.Arrays.fill(state, it);
                    e.checkpoint(it);
                    e.awaitDurable();
                }
                java.util.Arrays.fill(state, 3);
                e.checkpoint(3);
                assertThatThrownBy(e::awaitDurable).isInstanceOf(CheckpointFailedException.class)
                        .hasMessageContaining("No space left on device");
            }
            try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(mount))) {
                e.protect("state", Scope.LOCAL, state);
                assertThat(e.restore().orElseThrow().iteration()).isEqualTo(2);
                assertThat(state).containsOnly(2.0);
            }
        } finally {
            run("umount", mount.toString());
        }
    }

    private static int run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    /** Delegates to a real store but fails writes with ENOSPC's message once {@code budget} bytes were written. */
    static final class FullAfter extends InterceptingStore {
        volatile long budget;

        FullAfter(Store delegate, long budget) {
            super(delegate);
            this.budget = budget;
        }

        @Override
        protected void beforeWrite(String name, ByteBuffer src) throws IOException {
            if (src.remaining() > budget) {
                throw new IOException("No space left on device");
            }
            budget -= src.remaining();
        }
    }
}
