package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.Folders;
import io.ironloop.runtime.internal.state.GlobalState;

/**
 * Global lines are written by two ranks (rank 0 and rank size / 2): a restart whose rank-0 series was lost or
 * damaged restores from the copy, bit-identically.
 */
class GlobalCopyTest {
    private static final Map<String, Object> SETTINGS = Map.of("size", InJvmJob.SIZE, "app", "copy");

    @TempDir
    Path dir;

    @Test
    void saveGlobal_writesTheSameLinesIntoBothCopies() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        assertThat(job.run(4, 5, -1, SETTINGS).errors()).isEmpty();
        assertThat(lineFiles(GlobalState.COPY_SERIES)).isNotEmpty().isEqualTo(lineFiles(GlobalState.SERIES));
    }

    @Test
    void rankZerosGlobalSeriesDeleted_restartRestoresFromTheCopy_bitIdentical() throws Exception {
        restartAfter(() -> Folders.deleteTree(dir.resolve("ft").resolve(GlobalState.SERIES)));
    }

    @Test
    void rankZerosGlobalLinesCorrupted_restartRestoresTheNewestIntactCopy_bitIdentical() throws Exception {
        restartAfter(this::corruptRankZerosLines);
    }

    @Test
    void copyDeleted_restartRestoresFromRankZero_bitIdentical() throws Exception {
        restartAfter(() -> Folders.deleteTree(dir.resolve("ft").resolve(GlobalState.COPY_SERIES)));
    }

    /** What a test does to the folder between the run that stops and the restart. */
    private interface Damage {
        void apply() throws IOException;
    }

    /** A 3-rank job stops after 7 of 12 iterations; {@code damage}; the restart resumes at 7 and ends bit-identical. */
    private void restartAfter(Damage damage) throws Exception {
        long expected = reference();
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        assertThat(job.run(3, 12, 7, SETTINGS).errors()).isEmpty();
        damage.apply();

        InJvmJob.Outcome second = job.run(3, 12, -1, SETTINGS);

        assertThat(second.errors()).isEmpty();
        assertThat(second.startedAt()).containsOnly(7L);
        assertThat(second.checksums()).containsOnly(expected);
    }

    private void corruptRankZerosLines() throws IOException {
        Random random = new Random(42);
        for (Path data : dataFiles(GlobalState.SERIES)) {
            byte[] bytes = Files.readAllBytes(data);
            for (int i = 0; i < 64; i++) { // garbage past the header: the chunks' checksums catch it
                bytes[bytes.length / 2 + random.nextInt(bytes.length / 2)] ^= (byte) (1 + random.nextInt(255));
            }
            Files.write(data, bytes);
        }
    }

    private long reference() throws Exception {
        InJvmJob.Outcome ref = new InJvmJob(Files.createTempDirectory(dir, "ref")).run(3, 12, -1, SETTINGS);
        assertThat(ref.errors()).isEmpty();
        return ref.checksum();
    }

    private List<String> lineFiles(String series) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("ft").resolve(series))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("line-")).sorted().toList();
        }
    }

    private List<Path> dataFiles(String series) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("ft").resolve(series))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".ilc")).toList();
        }
    }
}
