package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.Scope;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged stores: each case asserts the exact fallback. */
class CorruptionTest {
    @TempDir
    Path dir;
    private final double[] state = new double[20_000];
    private Path newestData;
    private Path newestCommit;

    @BeforeEach
    void writeTwoLines() {
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            for (int it = 1; it <= 2; it++) {
                fill(it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        newestData = dir.resolve("rank-00000/line-000000000002.ilc");
        newestCommit = dir.resolve("rank-00000/line-000000000002.commit");
        assertThat(newestData).exists();
        assertThat(newestCommit).exists();
    }

    private CheckpointEngine open(EngineListener l) {
        CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().chunkSize(8192).retainLines(3).build(), Store.directory(dir), l);
        e.protect("state", Scope.LOCAL, state);
        return e;
    }

    private void fill(int iteration) {
        for (int i = 0; i < state.length; i++) {
            state[i] = iteration * 1e6 + i;
        }
    }

    private void assertRestoresLineOne(List<LineInfo> fellBack) {
        java.util.Arrays.fill(state, Double.NaN);
        try (CheckpointEngine e = open(new EngineListener() {
            @Override
            public void restoreFellBack(LineInfo line, Throwable cause) {
                assertThat(cause.getMessage()).as("the cause names the damaged file").contains(line.dataFile());
                fellBack.add(line);
            }
        })) {
            assertThat(e.restore().orElseThrow().iteration()).isEqualTo(1);
        }
        double[] expected = state.clone();
        fill(1);
        assertThat(expected).isEqualTo(state);
    }

    @Test
    void restore_randomByteFlipsInNewestFile_fallsBackToPreviousLine() throws IOException {
        byte[] pristine = Files.readAllBytes(newestData);
        Random rnd = new Random(11);
        for (int trial = 0; trial < 30; trial++) {
            byte[] damaged = pristine.clone();
            int at = rnd.nextInt(damaged.length);
            damaged[at] ^= (byte) (1 + rnd.nextInt(255));
            Files.write(newestData, damaged);
            List<LineInfo> fellBack = new ArrayList<>();
            assertRestoresLineOne(fellBack);
            assertThat(fellBack).as("flip at offset %d", at).extracting(LineInfo::iteration).containsExactly(2L);
        }
    }

    @Test
    void restore_newestFileTruncated_fallsBackToPreviousLine() throws IOException {
        long size = Files.size(newestData);
        Random rnd = new Random(12);
        byte[] pristine = Files.readAllBytes(newestData);
        for (int trial = 0; trial < 10; trial++) {
            try (RandomAccessFile f = new RandomAccessFile(newestData.toFile(), "rw")) {
                f.setLength(rnd.nextLong(size));
            }
            assertRestoresLineOne(new ArrayList<>());
            Files.write(newestData, pristine);
        }
    }

    @Test
    void restore_commitRecordDeleted_newestLineIsInvisible() throws IOException {
        Files.delete(newestCommit);
        assertRestoresLineOne(new ArrayList<>());
    }

    @Test
    void restore_commitRecordCorrupt_newestLineIsIgnored() throws IOException {
        byte[] b = Files.readAllBytes(newestCommit);
        b[b.length / 2] ^= 0x20;
        Files.write(newestCommit, b);
        assertRestoresLineOne(new ArrayList<>());
        assertThat(newestData).as("data of an unreadable commit record is kept for inspection").exists();
    }

    @Test
    void open_strayTemporary_isRemoved() throws IOException {
        Path stray = dir.resolve("rank-00000/line-000000000003.ilc.tmp");
        Files.write(stray, new byte[100]);
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            assertThat(stray).doesNotExist();
            e.checkpoint(3);
            e.awaitDurable();
            assertThat(e.lines()).extracting(LineInfo::sequence).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void restore_everyLineCorrupt_throwsNoIntactCheckpoint() throws IOException {
        for (String name : List.of("line-000000000001.ilc", "line-000000000002.ilc")) {
            Path p = dir.resolve("rank-00000").resolve(name);
            byte[] b = Files.readAllBytes(p);
            b[b.length / 2] ^= 1;
            Files.write(p, b);
        }
        try (CheckpointEngine e = open(EngineListener.NONE)) {
            assertThatThrownBy(e::restore).isInstanceOf(NoIntactCheckpointException.class).hasMessageContaining("reinitialise");
        }
    }
}
