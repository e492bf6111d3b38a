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
}
