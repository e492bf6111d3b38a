package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.StoreCatalog.Problem;
import io.ironloop.core.StoreCatalog.SeriesListing;
import io.ironloop.core.StoreCatalog.VerifyReport;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read-only catalogue tools use: listing, damage classification and chunk-level verification. */
class StoreCatalogTest {
    private static final String SERIES = "rank-00000";
    @TempDir
    Path dir;
    private Store store;
    private StoreCatalog catalog;

    /** Three lines of a differential series: line 1 full, lines 2 and 3 referencing unchanged chunks of line 1. */
    @BeforeEach
    void writeLines() {
        double[] state = new double[6000];
        for (int i = 0; i < state.length; i++) {
            state[i] = Math.sin(i * 0.01);
        }
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).retainLines(5).differential(true, 8).build(),
                Store.directory(dir))) {
            e.protect("state", Scope.LOCAL, state);
            for (int it = 1; it <= 3; it++) {
                state[0] = it;
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        store = Store.directory(dir);
        catalog = StoreCatalog.of(store);
    }

    private String data(long line) {
        return String.format("%s/line-%012d.ilc", SERIES, line);
    }

    private String commit(long line) {
        return String.format("%s/line-%012d.commit", SERIES, line);
    }

    private Manifest manifest(String name) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            return CheckpointReader.open(ch, name, store::openRead).manifest();
        }
    }

    /** A chunk of line 3 held by an earlier file, as (file, offset, chunk). */
    private ChunkDescriptor referencedChunkOfLine3() throws IOException {
        for (EntryDescriptor e : manifest(data(3)).entries()) {
            for (ChunkDescriptor c : e.chunks()) {
                if (c.file() != null && !c.zero()) {
                    return c;
                }
            }
        }
        throw new AssertionError("line 3 references no chunk");
    }

    private void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x5A);
        }
    }

    @Test
    void list_pristineSeries_listsCommittedLinesOnly() throws IOException {
        SeriesListing l = catalog.list(SERIES);
        assertThat(catalog.series()).containsExactly(SERIES);
        assertThat(l.lines()).extracting(LineInfo::iteration).containsExactly(1L, 2L, 3L);
        assertThat(l.lines()).extracting(LineInfo::full).containsExactly(true, false, false);
        assertThat(l.invalidCommits()).isEmpty();
        assertThat(l.orphanDataFiles()).isEmpty();
        assertThat(l.temporaries()).isEmpty();
    }

    @Test
    void list_damagedSeries_classifiesInvalidCommitOrphanAndTemporary() throws IOException {
        Files.copy(dir.resolve(data(3)), dir.resolve(data(9)));
        Files.writeString(dir.resolve(commit(2)), "IRONLOOP-COMMIT 1\n{garbage\ncrc32c 00000000\n");
        Files.write(dir.resolve(data(11) + ".tmp"), new byte[10]);

        SeriesListing l = catalog.list(SERIES);

        assertThat(l.lines()).extracting(LineInfo::sequence).containsExactly(1L, 3L);
        assertThat(l.invalidCommits()).extracting(StoreCatalog.InvalidCommit::commitFile).containsExactly(commit(2));
        assertThat(l.invalidCommits().get(0).error().getMessage()).contains(commit(2)).contains("CRC32C mismatch");
        assertThat(l.orphanDataFiles()).containsExactly(data(9));
        assertThat(l.temporaries()).containsExactly(data(11) + ".tmp");
    }

    @Test
    void verifyStore_pristine_everyChecksumHolds() throws IOException {
        VerifyReport r = catalog.verifyStore();

        assertThat(r.problems()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.files()).contains(data(1), data(2), data(3), commit(1), commit(2), commit(3));
        assertThat(r.chunks()).isEqualTo(3L * 12);
    }

    @Test
    void verifyLine_flippedByteInReferencedChunk_namesEntryChunkLocationAndBothCrcs() throws IOException {
        ChunkDescriptor c = referencedChunkOfLine3();
        flipByte(dir.resolve(c.file()), c.offset() + c.storedLength() / 2);

        VerifyReport r = catalog.verifyLine(SERIES, 3);

        assertThat(r.ok()).isFalse();
        Problem p = r.problems().get(0);
        assertThat(p.file()).isEqualTo(data(3));
        assertThat(p.location()).isEqualTo(c.file());
        assertThat(p.entry()).isEqualTo("state");
        assertThat(p.chunk()).isEqualTo(c.index());
        assertThat(p.offset()).isEqualTo(c.offset());
        assertThat(p.storedCrc()).isEqualTo(Integer.toUnsignedLong(c.crc32c()));
        assertThat(p.computedCrc()).isNotEqualTo(p.storedCrc());
        assertThat(p.checksumMismatch()).isTrue();
        assertThat(catalog.verifyStore().problems()).extracting(Problem::file).contains(c.file(), data(3));
    }

    @Test
    void verifyFile_truncatedDataFile_reportsCommitRecordAndDataFile() throws IOException {
        Path file = dir.resolve(data(3));
        long size = Files.size(file);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size / 2);
        }

        VerifyReport viaCommit = catalog.verifyFile(commit(3));
        VerifyReport viaData = catalog.verifyFile(data(3));

        assertThat(viaCommit.problems()).extracting(Problem::file).contains(commit(3), data(3));
        assertThat(viaCommit.problems().get(0).message()).contains("truncated");
        assertThat(viaData.ok()).isFalse();
        assertThat(viaData.problems()).allSatisfy(p -> assertThat(p.file()).isEqualTo(data(3)));
    }

    @Test
    void verifyLine_dataWithoutCommitRecord_reportsNeverCommitted() throws IOException {
        Files.delete(dir.resolve(commit(3)));

        VerifyReport r = catalog.verifyLine(SERIES, 3);

        assertThat(r.problems()).hasSize(1);
        assertThat(r.problems().get(0).message()).contains("never committed");
        assertThatThrownBy(() -> catalog.verifyLine(SERIES, 42)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no line 42");
    }

    @Test
    void verifyFile_corruptCommitRecord_reportsItAndStillChecksTheData() throws IOException {
        byte[] b = Files.readAllBytes(dir.resolve(commit(1)));
        b[b.length / 2] ^= 1;
        Files.write(dir.resolve(commit(1)), b);

        VerifyReport r = catalog.verifyFile(commit(1));

        assertThat(r.problems()).hasSize(1);
        assertThat(r.problems().get(0).file()).isEqualTo(commit(1));
        assertThat(r.files()).contains(data(1));
        assertThat(new String(b, StandardCharsets.UTF_8)).startsWith("IRONLOOP-COMMIT");
    }
}
