package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK0;
import static io.ironloop.cli.KeptCheckpoint.RANK1;
import static io.ironloop.cli.KeptCheckpoint.commit;
import static io.ironloop.cli.KeptCheckpoint.data;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.KeptCheckpoint.Run;
import io.ironloop.core.Store;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.EntryDescriptor;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code ironloop verify} on a kept checkpoint, pristine and damaged. */
class VerifyCommandTest {
    @TempDir
    static Path dir;
    static KeptCheckpoint kept;

    @BeforeAll
    static void keep() {
        kept = KeptCheckpoint.create(dir.resolve("store"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", RANK0, RANK0 + "/line-000000000003", RANK0 + "/line-000000000003.commit",
        RANK0 + "/line-000000000002.ilc", RANK1 + "/line-000000000001.ilc"})
    void verify_pristinePath_exitsZero(String relative) {
        Run r = run("verify", relative.isEmpty() ? kept.root : kept.root.resolve(relative));

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("every checksum holds").doesNotContain("BAD");
    }

    @Test
    void verify_store_countsEveryFile() {
        Run r = run("verify", kept.root);

        assertThat(r.out()).contains("verified 12 file(s)");
    }

    @Test
    void verify_flippedByteInStoredChunk_namesFileEntryChunkOffsetAndBothCrcs() throws Exception {
        Path copy = kept.copyTo(dir.resolve("flipped"));
        String file = data(RANK0, 1);
        ChunkDescriptor chunk = null;
        String entry = null;
        try (Store store = Store.directory(copy); SeekableByteChannel ch = store.openRead(file)) {
            for (EntryDescriptor e : CheckpointReader.open(ch, file, store::openRead).manifest().entries()) {
                if (e.name().equals("cells")) {
                    entry = e.name();
                    chunk = e.chunks().get(1);
                }
            }
        }
        long at = chunk.offset() + new Random(3).nextInt((int) chunk.storedLength());
        try (RandomAccessFile f = new RandomAccessFile(copy.resolve(file).toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x10);
        }

        Run line = run("verify", copy.resolve(file));
        Run store = run("verify", copy);

        assertThat(line.exit()).isEqualTo(1);
        String expected = file + ": entry '" + entry + "' chunk 1, offset " + chunk.offset() + String.format(": stored CRC32C %08x, computed ",
                chunk.crc32c());
        assertThat(line.out()).contains("BAD " + expected).contains("1 problem(s)");
        assertThat(store.exit()).isEqualTo(1);
        assertThat(store.out()).contains("BAD " + expected);
    }

    @Test
    void verify_truncatedFile_exitsOneNamingTheFile() throws Exception {
        Path copy = kept.copyTo(dir.resolve("truncated"));
        String file = data(RANK1, 2);
        try (RandomAccessFile f = new RandomAccessFile(copy.resolve(file).toFile(), "rw")) {
            f.setLength(f.length() - 100);
        }

        Run byFile = run("verify", copy.resolve(file));
        Run byLine = run("verify", copy.resolve(commit(RANK1, 2)));
        Run byStore = run("verify", copy);

        assertThat(byFile.exit()).isEqualTo(1);
        assertThat(byFile.out()).contains("BAD " + file + ": offset ");
        assertThat(byLine.exit()).isEqualTo(1);
        assertThat(byLine.out()).contains("BAD " + commit(RANK1, 2)).contains("truncated");
        assertThat(byStore.exit()).isEqualTo(1);
        assertThat(byStore.out()).contains("BAD " + file).contains("BAD " + commit(RANK1, 2));
    }

    @Test
    void verify_missingPath_isAUsageError() {
        Run r = run("verify", kept.root.resolve(RANK0 + "/line-000000000099"));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("does not exist").contains("line (DIR/rank-00000/line-000000000003)");
    }

    @Test
    void verify_fileThatIsNoCheckpoint_isAUsageError() throws Exception {
        Path other = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "hello");

        Run r = run("verify", other);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("neither a directory nor a checkpoint file");
    }

    @Test
    void verify_directoryAboveAStore_verifiesTheStoreAndNamesIt() throws Exception {
        Path above = Files.createDirectories(dir.resolve("above"));
        kept.copyTo(above.resolve("checkpoint"));

        Run r = run("verify", above);

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("store " + above.toAbsolutePath().resolve("checkpoint") + ": 12 file(s)")
                .contains("verified 12 file(s)").contains("every checksum holds");
    }

    @Test
    void verify_storesAtSeveralDepths_verifiesEachAndNamesEach() throws Exception {
        Path above = Files.createDirectories(dir.resolve("several"));
        kept.copyTo(above.resolve("a/checkpoint"));
        kept.copyTo(above.resolve("b/deeper/still"));
        Files.writeString(Files.createDirectories(above.resolve("notes")).resolve("readme.txt"), "not a store");

        Run r = run("verify", above);

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("store " + above.toAbsolutePath().resolve("a/checkpoint") + ": 12 file(s)")
                .contains("store " + above.toAbsolutePath().resolve("b/deeper/still") + ": 12 file(s)").contains("verified 24 file(s)");
    }

    @Test
    void verify_storeOneLevelDownWithOneDamagedByte_exitsOneNamingTheFile() throws Exception {
        Path above = Files.createDirectories(dir.resolve("damaged-below"));
        Path store = kept.copyTo(above.resolve("checkpoint"));
        String file = data(RANK1, 1);
        try (RandomAccessFile f = new RandomAccessFile(store.resolve(file).toFile(), "rw")) {
            f.seek(5000);
            int b = f.read();
            f.seek(5000);
            f.write(b ^ 0x01);
        }

        Run r = run("verify", above);

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("BAD checkpoint/" + file + ": ").contains("1 problem(s)");
    }

    @Test
    void verify_emptyDirectory_isAUsageErrorNeverSuccess() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));

        Run r = run("verify", empty);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no checkpoint store under " + empty);
        assertThat(r.out()).doesNotContain("every checksum holds");
    }

    @Test
    void verify_unrelatedDirectory_isAUsageError() throws Exception {
        Path unrelated = Files.createDirectories(dir.resolve("unrelated/src/main"));
        Files.writeString(unrelated.resolve("App.java"), "class App {}");
        Files.writeString(unrelated.getParent().resolve("line-7.ilc"), "a name that is almost a line");

        Run r = run("verify", dir.resolve("unrelated"));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no checkpoint store under");
    }

    @Test
    void verify_seriesWithoutAnyLine_isAUsageErrorNeverSuccess() throws Exception {
        Path store = Files.createDirectories(dir.resolve("locked-only/rank-00000"));
        Files.writeString(store.resolve(".lock"), "pid 1\n");

        Run byStore = run("verify", store.getParent());
        Run bySeries = run("verify", store);

        assertThat(byStore.exit()).isEqualTo(2);
        assertThat(byStore.err()).contains("no checkpoint file under");
        assertThat(bySeries.exit()).isEqualTo(2);
        assertThat(bySeries.err()).contains("no checkpoint file under");
    }

    @Test
    void verify_chunkWhoseCrcHoldsButThatDoesNotDecode_exitsOneLikeExportAndRestore() throws Exception {
        Path copy = kept.copyTo(dir.resolve("hostile-frame"));
        String file = data(RANK0, 1);
        long offset = ForgedCheckpoints.plantHostileFrame(copy.resolve(file), "temperature", 1);

        Run byFile = run("verify", copy.resolve(file));
        Run byStore = run("verify", copy);
        Run newest = run("verify", copy.resolve(RANK0 + "/line-000000000003"));
        Run export = run("export", copy.resolve(file), "--format", "npy", "--out", dir.resolve("hostile-export"));

        assertThat(byFile.exit()).as(byFile.out()).isEqualTo(1);
        assertThat(byFile.out()).contains("BAD " + file + ": entry 'temperature' chunk 1, offset " + offset + ": ")
                .contains("does not decompress with ZSTD although its CRC32C holds");
        assertThat(byStore.exit()).isEqualTo(1);
        assertThat(byStore.out()).contains("BAD " + file + ": entry 'temperature' chunk 1");
        assertThat(newest.exit()).as("a differential line referencing the chunk is bad too").isEqualTo(1);
        assertThat(newest.out()).contains("BAD " + data(RANK0, 3) + ": entry 'temperature' chunk 1, offset " + offset + " in " + file);
        assertThat(export.exit()).isEqualTo(1);
        assertThat(export.err()).contains("does not decompress");
        assertThat(dir.resolve("hostile-export/temperature.npy")).as("no partial array is left").doesNotExist();
    }
}
