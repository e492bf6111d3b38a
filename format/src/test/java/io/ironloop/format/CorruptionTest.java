package io.ironloop.format;

import io.ironloop.format.internal.ManifestChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.ironloop.format.Checkpoints.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/** Damaged files: every flipped byte, truncation and extension is detected, with the file named. */
class CorruptionTest {
    private static final String NAME = "store/line-3/rank-1.ilc";

    /** A small file with raw, compressed, shuffled, zero and empty entries. */
    private static byte[] smallFile() {
        Random rnd = new Random(1);
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        entries.put(new EntryHeader("raw", ElementType.INT, new long[] {250}, Scope.LOCAL, Codec.NONE), Checkpoints.randomBytes(rnd, 1000));
        entries.put(new EntryHeader("zstd", ElementType.DOUBLE, new long[] {16, 16}, Scope.GLOBAL, Codec.ZSTD), Checkpoints.smoothDoubles(16, 16));
        entries.put(new EntryHeader("lz4", ElementType.OPAQUE, new long[] {700}, Scope.SETTINGS, Codec.LZ4), ByteBuffer.wrap(new byte[700]).put(5, (byte) 1));
        entries.put(new EntryHeader("zero", ElementType.FLOAT, new long[] {1500}, Scope.LOCAL, Codec.NONE), ByteBuffer.allocate(6000));
        entries.put(new EntryHeader("empty", ElementType.SHORT, new long[] {0}, Scope.LOCAL, Codec.NONE), ByteBuffer.allocate(0));
        return write(NAME, new WriterOptions(4096, 3, false), null, entries).bytes();
    }

    /** A larger file of many 4 KiB chunks with mixed contents and codecs. */
    private static byte[] largeFile() {
        Random rnd = new Random(2);
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        Codec[] codecs = Codec.values();
        for (int i = 0; i < 6; i++) {
            EntryHeader h = new EntryHeader("e" + i, ElementType.LONG, new long[] {4096 + 77 * i}, Scope.LOCAL, codecs[i % 3]);
            entries.put(h, Checkpoints.mixed(rnd, (int) h.byteLength(), 4096));
        }
        return write(NAME, new WriterOptions(4096, 3, false), null, entries).bytes();
    }

    /**
     * Asserts that damaged bytes are reported by open or else by verify, and that reading either fails
     * with the file named or (for damaged alignment padding, which holds no data) returns the original.
     */
    private static void assertDetected(byte[] damaged, byte[] original, String what) throws IOException {
        CheckpointReader r;
        try {
            r = Checkpoints.open(damaged, NAME, ChunkResolver.NONE);
        } catch (CorruptCheckpointException e) {
            assertThat(e).as(what).hasMessageStartingWith(NAME + " at offset ");
            assertThat(e.file()).isEqualTo(NAME);
            return;
        }
        List<CorruptCheckpointException> problems = r.verify();
        assertThat(problems).as(what + ": open passed, so verify must find it").isNotEmpty();
        assertThat(problems).allSatisfy(p -> assertThat(p.getMessage()).startsWith(NAME + " at offset "));
        Map<String, ByteBuffer> read;
        try {
            read = Checkpoints.readAll(r);
        } catch (CorruptCheckpointException e) {
            assertThat(e).as(what).hasMessageContaining(NAME);
            return;
        }
        assertThat(problems).as(what).singleElement().satisfies(p -> assertThat(p).hasMessageContaining("padding"));
        assertThat(read).as(what).isEqualTo(Checkpoints.readAll(Checkpoints.open(original)));
    }

    @Test
    void open_everySingleByteFlipped_isDetectedSoEveryByteIsCovered() throws IOException {
        byte[] file = smallFile();
        Random rnd = new Random(3);
        assertThat(Checkpoints.open(file, NAME, ChunkResolver.NONE).verify()).isEmpty();

        for (int at = 0; at < file.length; at++) {
            byte[] damaged = file.clone();
            damaged[at] ^= (byte) (1 + rnd.nextInt(255));
            assertDetected(damaged, file, "flip at " + at + " of " + file.length);
        }
    }

    @Test
    void open_randomBytesFlippedInALargeFile_isDetected() throws IOException {
        byte[] file = largeFile();
        Random rnd = new Random(4);
        for (int trial = 0; trial < 300; trial++) {
            byte[] damaged = file.clone();
            int flips = 1 + rnd.nextInt(4);
            List<Integer> where = new ArrayList<>();
            for (int f = 0; f < flips; f++) {
                int at = rnd.nextInt(file.length);
                damaged[at] ^= (byte) (1 + rnd.nextInt(255));
                where.add(at);
            }
            assertDetected(damaged, file, "trial " + trial + " flips at " + where);
        }
    }

    @Test
    void verify_damagedAlignmentPadding_isReportedAtTheDamagedByteWhileDataStillReads() throws IOException {
        byte[] file = largeFile();
        List<long[]> gaps = ManifestChecks.padding(Checkpoints.open(file).manifest());
        long[] gap = gaps.get(gaps.size() / 2);
        byte[] damaged = file.clone();
        damaged[(int) (gap[0] + gap[1] / 2)] = 1;

        CheckpointReader r = Checkpoints.open(damaged, NAME, ChunkResolver.NONE);

        assertThat(gaps).hasSizeGreaterThan(2);
        assertThat(r.verify()).singleElement().isInstanceOf(ChecksumMismatchException.class)
                .extracting(CorruptCheckpointException::offset).isEqualTo(gap[0] + gap[1] / 2);
        assertThat(Checkpoints.readAll(r)).isEqualTo(Checkpoints.readAll(Checkpoints.open(file)));
    }

    @Test
    void open_truncatedAtAnyOffset_throwsCorruptNamingTheFile() {
        byte[] file = largeFile();
        Random rnd = new Random(5);
        List<Integer> lengths = new ArrayList<>(List.of(0, 1, 19, 20, 21, 52, file.length - 1, file.length - 32, file.length - 33));
        for (int i = 0; i < 300; i++) {
            lengths.add(rnd.nextInt(file.length));
        }
        for (int length : lengths) {
            byte[] truncated = Arrays.copyOf(file, length);
            assertThatThrownBy(() -> Checkpoints.open(truncated, NAME, ChunkResolver.NONE)).as("truncated to " + length)
                    .isInstanceOf(CorruptCheckpointException.class).hasMessageStartingWith(NAME + " at offset ");
        }
    }

    @Test
    void open_bytesAppended_throwsCorrupt() {
        byte[] file = largeFile();
        for (int extra : new int[] {1, 7, 32, 4096}) {
            byte[] longer = Arrays.copyOf(file, file.length + extra);
            assertThatThrownBy(() -> Checkpoints.open(longer, NAME, ChunkResolver.NONE)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("trailer");
        }
    }

    @Test
    void verify_severalDamagedChunks_listsEachWithFileOffsetAndBothChecksums(@TempDir Path dir) throws IOException {
        byte[] file = largeFile();
        Manifest m = Checkpoints.open(file).manifest();
        List<ChunkDescriptor> stored = m.entries().stream().flatMap(e -> e.chunks().stream()).filter(c -> !c.zero()).toList();
        List<ChunkDescriptor> damagedChunks = List.of(stored.get(1), stored.get(4), stored.get(stored.size() - 1));
        for (ChunkDescriptor c : damagedChunks) {
            file[(int) (c.offset() + c.storedLength() / 2)] ^= 0x40;
        }
        Path path = dir.resolve("rank-1.ilc");
        Files.write(path, file);

        List<CorruptCheckpointException> problems;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            problems = CheckpointReader.open(ch, path.toString(), ChunkResolver.NONE).verify();
        }

        assertThat(problems).hasSize(3);
        for (int i = 0; i < 3; i++) {
            ChecksumMismatchException p = (ChecksumMismatchException) problems.get(i);
            assertThat(p.file()).isEqualTo(path.toString());
            assertThat(p.offset()).isEqualTo(damagedChunks.get(i).offset());
            assertThat(p.stored()).isEqualTo(damagedChunks.get(i).crc32c());
            assertThat(p.computed()).isNotEqualTo(p.stored());
            assertThat(p.getMessage()).contains(String.format("0x%08x", p.stored()), String.format("0x%08x", p.computed()));
        }
    }

    @Test
    void readEntry_fileShrinksAfterOpen_throwsCorruptInsteadOfReadingGarbage() throws IOException {
        byte[] file = largeFile();
        MemoryChannel ch = new MemoryChannel(file);
        CheckpointReader r = CheckpointReader.open(ch, NAME, ChunkResolver.NONE);
        ch.truncate(file.length / 2);

        try {
            Checkpoints.readAll(r);
            fail("reading a truncated file succeeded");
        } catch (CorruptCheckpointException e) {
            assertThat(e).hasMessageContaining(NAME).hasMessageContaining("ends");
        }
    }
}
