package io.ironloop.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamingReadTest {
    private static final WriterOptions OPTIONS = new WriterOptions(8192, 3, true);

    @TempDir
    Path dir;

    private static Map<EntryHeader, ByteBuffer> entries(Random rnd) {
        Map<EntryHeader, ByteBuffer> m = new LinkedHashMap<>();
        for (Codec codec : Codec.values()) {
            EntryHeader h = new EntryHeader("d-" + codec, ElementType.DOUBLE, new long[] {10_000}, Scope.LOCAL, codec);
            m.put(h, Checkpoints.mixed(rnd, 80_000, 8192));
        }
        return m;
    }

    /** A full file {@code s/a.ilc} and a differential {@code s/b.ilc} over it holding {@code second}. */
    private record Chain(Checkpoints.Written a, Checkpoints.Written b, Map<EntryHeader, ByteBuffer> second) {
    }

    /** Writes every codec's entry in full, then again with one byte changed, referencing the unchanged chunks. */
    private static Chain chain(Random rnd) {
        Map<EntryHeader, ByteBuffer> first = entries(rnd);
        Checkpoints.Written a = Checkpoints.write("s/a.ilc", OPTIONS, null, first);
        Map<EntryHeader, ByteBuffer> second = new LinkedHashMap<>();
        first.forEach((h, b) -> second.put(h, ByteBuffer.allocate(b.remaining()).put(b.duplicate()).put(9, (byte) 7).flip()));
        return new Chain(a, Checkpoints.write("s/b.ilc", OPTIONS, a.manifest(), second), second);
    }

    /** Collects streamed chunks into one buffer, checking offsets and read-only views. */
    private static ByteBuffer stream(CheckpointReader r, String name, int length) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(length);
        long[] expectedOffset = {0};
        r.readEntry(name, (offset, bytes) -> {
            assertThat(offset).isEqualTo(expectedOffset[0]);
            assertThat(bytes.isReadOnly()).isTrue();
            expectedOffset[0] += bytes.remaining();
            out.put(bytes);
        });
        assertThat(expectedOffset[0]).isEqualTo(length);
        return out.flip();
    }

    @Test
    void readEntryWithSink_everyCodecZeroChunksAndReferences_deliversTheSameBytesInOrder() throws IOException {
        Chain chain = chain(new Random(21));
        Checkpoints.Written a = chain.a();
        Checkpoints.Written b = chain.b();
        Map<EntryHeader, ByteBuffer> second = chain.second();

        CheckpointReader r = Checkpoints.open(b.bytes(), "s/b.ilc", Checkpoints.resolver(Map.of("s/a.ilc", a.bytes())));

        assertThat(b.summary().referencedChunks()).isPositive();
        for (Map.Entry<EntryHeader, ByteBuffer> e : second.entrySet()) {
            assertThat(stream(r, e.getKey().name(), e.getValue().remaining())).isEqualTo(e.getValue());
        }
    }

    @Test
    void readEntryWithSink_copyingIntoADoubleArray_restoresTheArray() throws IOException {
        double[] values = new double[5000];
        Random rnd = new Random(22);
        for (int i = 0; i < values.length; i++) {
            values[i] = rnd.nextGaussian();
        }
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asDoubleBuffer().put(values);
        EntryHeader h = new EntryHeader("v", ElementType.DOUBLE, new long[] {values.length}, Scope.LOCAL, Codec.NONE);
        CheckpointReader r = Checkpoints.open(Checkpoints.write(OPTIONS, Map.of(h, bytes)).bytes());

        double[] restored = new double[values.length];
        r.readEntry("v", (offset, chunk) -> chunk.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer()
                .get(restored, (int) (offset / 8), chunk.remaining() / 8));

        assertThat(restored).containsExactly(values);
    }

    @Test
    void readEntryWithSink_damagedChunk_deliversOnlyTheChunksBeforeIt() throws IOException {
        Map<EntryHeader, ByteBuffer> entries = entries(new Random(23));
        Checkpoints.Written w = Checkpoints.write(OPTIONS, entries);
        ChunkDescriptor third = w.manifest().entry("d-NONE").orElseThrow().chunks().stream()
                .filter(c -> !c.zero() && c.index() >= 2).findFirst().orElseThrow();
        byte[] damaged = w.bytes().clone();
        damaged[(int) third.offset() + 3] ^= 1;
        CheckpointReader r = Checkpoints.open(damaged);
        List<Long> delivered = new ArrayList<>();

        assertThatThrownBy(() -> r.readEntry("d-NONE", (offset, bytes) -> delivered.add(offset)))
                .isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("chunk " + third.index());
        assertThat(delivered).hasSize(third.index()).allSatisfy(o -> assertThat(o).isLessThan(third.index() * 8192L));
    }

    @Test
    void readEntryWithSink_sinkThrows_propagatesTheSinksException() throws IOException {
        CheckpointReader r = Checkpoints.open(Checkpoints.write(OPTIONS, entries(new Random(24))).bytes());

        assertThatThrownBy(() -> r.readEntry("d-ZSTD", (offset, bytes) -> {
            throw new IOException("destination full");
        })).isInstanceOf(IOException.class).hasMessage("destination full");
    }

    /** Writes {@code w} to a real file and opens it through a {@code FileChannel}, the one channel read in parallel. */
    private FileChannel onDisk(String name, byte[] bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.write(f, bytes);
        return FileChannel.open(f, StandardOpenOption.READ);
    }

    @Test
    void readEntryInParallel_fileChannelWithReferences_deliversEveryChunkOnceFromSeveralThreads() throws IOException {
        Chain chain = chain(new Random(25));
        Checkpoints.Written a = chain.a();
        Checkpoints.Written b = chain.b();
        Map<EntryHeader, ByteBuffer> second = chain.second();
        onDisk("s/a.ilc", a.bytes()).close();
        Set<String> threads = ConcurrentHashMap.newKeySet();

        try (FileChannel ch = onDisk("s/b.ilc", b.bytes())) {
            CheckpointReader r = CheckpointReader.open(ch, "s/b.ilc", name -> FileChannel.open(dir.resolve(name), StandardOpenOption.READ));
            for (Map.Entry<EntryHeader, ByteBuffer> e : second.entrySet()) {
                int length = e.getValue().remaining();
                ByteBuffer out = ByteBuffer.allocate(length);
                List<Long> offsets = Collections.synchronizedList(new ArrayList<>());
                Set<String> entryThreads = ConcurrentHashMap.newKeySet();
                r.readEntry(e.getKey().name(), 3, (offset, bytes) -> {
                    threads.add(Thread.currentThread().getName());
                    entryThreads.add(Thread.currentThread().getName());
                    // the threads claim chunks as they go: a slow destination spreads them over the threads
                    LockSupport.parkNanos(2_000_000);
                    offsets.add(offset);
                    out.put((int) offset, bytes, bytes.position(), bytes.remaining());
                });
                assertThat(out).as(e.getKey().name()).isEqualTo(e.getValue());
                assertThat(offsets).as("each chunk once").doesNotHaveDuplicates().hasSize((length + 8191) / 8192);
                assertThat(entryThreads).as("one entry: the caller and up to two helpers").hasSizeBetween(1, 3);
            }
        }
        assertThat(b.summary().referencedChunks()).isPositive();
        // helpers come from a pool, so different entries may be read by different helpers
        assertThat(threads).as("several threads read the entries").hasSizeGreaterThanOrEqualTo(2);
        assertThat(threads.stream().filter(t -> !t.equals(Thread.currentThread().getName())))
                .allMatch(t -> t.startsWith("ironloop-read"));
    }

    @Test
    void readEntryInParallel_damagedChunk_throwsItsMismatchAndNeverDeliversIt() throws IOException {
        Checkpoints.Written w = Checkpoints.write(OPTIONS, entries(new Random(26)));
        ChunkDescriptor last = w.manifest().entry("d-NONE").orElseThrow().chunks().stream()
                .filter(c -> !c.zero()).reduce((x, y) -> y).orElseThrow();
        byte[] damaged = w.bytes().clone();
        damaged[(int) last.offset() + 5] ^= 1;
        Set<Long> delivered = ConcurrentHashMap.newKeySet();

        try (FileChannel ch = onDisk("damaged.ilc", damaged)) {
            CheckpointReader r = CheckpointReader.open(ch, "damaged.ilc", name -> null);
            assertThatThrownBy(() -> r.readEntry("d-NONE", 4, (offset, bytes) -> delivered.add(offset)))
                    .isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("chunk " + last.index());
            assertThat(delivered).as("the damaged chunk is never delivered").doesNotContain(last.index() * 8192L);
        }
    }

    @Test
    void readEntryInParallel_sinkThrowsOrNoThreads_reportsTheProblem() throws IOException {
        try (FileChannel ch = onDisk("ok.ilc", Checkpoints.write(OPTIONS, entries(new Random(27))).bytes())) {
            CheckpointReader r = CheckpointReader.open(ch, "ok.ilc", name -> null);
            assertThatThrownBy(() -> r.readEntry("d-LZ4", 2, (offset, bytes) -> {
                throw new IOException("destination full");
            })).isInstanceOf(IOException.class).hasMessage("destination full");
            assertThatThrownBy(() -> r.readEntry("d-LZ4", 0, (offset, bytes) -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
        }
    }
}
