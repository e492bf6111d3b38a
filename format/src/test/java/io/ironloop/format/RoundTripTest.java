package io.ironloop.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static io.ironloop.format.Checkpoints.open;
import static io.ironloop.format.Checkpoints.write;
import static org.assertj.core.api.Assertions.assertThat;

class RoundTripTest {
    private static final WriterOptions SMALL = new WriterOptions(4096, 3, false);

    static Stream<Arguments> typesScopesCodecs() {
        return Arrays.stream(ElementType.values()).flatMap(t -> Arrays.stream(Scope.values())
                .flatMap(s -> Arrays.stream(Codec.values()).map(c -> Arguments.of(t, s, c))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("typesScopesCodecs")
    void readEntry_everyTypeScopeAndCodec_returnsWrittenBytes(ElementType type, Scope scope, Codec codec) throws IOException {
        Random rnd = new Random(type.ordinal() * 100L + scope.ordinal() * 10L + codec.ordinal());
        long[] shape = {3, 1000 + rnd.nextInt(2000)};
        EntryHeader h = new EntryHeader("e-" + type, type, shape, scope, codec);
        ByteBuffer data = Checkpoints.mixed(rnd, (int) h.byteLength(), 3000);
        Checkpoints.Written w = write(SMALL, Map.of(h, data));

        CheckpointReader r = open(w.bytes());
        ByteBuffer out = ByteBuffer.allocate((int) h.byteLength());
        r.readEntry(h.name(), out);

        assertThat(out).isEqualTo(data);
        assertThat(r.manifest().entry(h.name())).get().extracting(EntryDescriptor::header).isEqualTo(h);
        assertThat(r.verify()).isEmpty();
    }

    @Test
    void readEntry_emptyAndScalarEntries_roundTrip() throws IOException {
        EntryHeader empty = new EntryHeader("empty", ElementType.DOUBLE, new long[] {0, 5}, Scope.LOCAL, Codec.ZSTD);
        EntryHeader scalar = new EntryHeader("scalar", ElementType.LONG, new long[0], Scope.GLOBAL, Codec.NONE);
        EntryHeader opaque = new EntryHeader("opaque", ElementType.OPAQUE, new long[] {0}, Scope.SETTINGS, Codec.LZ4);
        ByteBuffer one = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        entries.put(empty, ByteBuffer.allocate(0));
        entries.put(scalar, one);
        entries.put(opaque, ByteBuffer.allocate(0));

        CheckpointReader r = open(write(SMALL, entries).bytes());

        assertThat(r.manifest().entry("empty").orElseThrow().chunks()).isEmpty();
        assertThat(r.manifest().entry("opaque").orElseThrow().chunks()).isEmpty();
        ByteBuffer out = ByteBuffer.allocate(8);
        r.readEntry("scalar", out);
        assertThat(out).isEqualTo(one);
        r.readEntry("empty", ByteBuffer.allocate(0));
    }

    @Test
    void readEntry_shapesOfSeveralDimensions_keepShapeAndBytes() throws IOException {
        Random rnd = new Random(42);
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        long[][] shapes = {{7}, {3, 5}, {2, 3, 4}, {2, 1, 3, 1, 5}, {1, 1, 1, 1, 1, 1, 1, 1}};
        for (int i = 0; i < shapes.length; i++) {
            EntryHeader h = new EntryHeader("s" + i, ElementType.FLOAT, shapes[i], Scope.LOCAL, Codec.NONE);
            entries.put(h, Checkpoints.randomBytes(rnd, (int) h.byteLength()));
        }

        CheckpointReader r = open(write(SMALL, entries).bytes());

        for (Map.Entry<EntryHeader, ByteBuffer> e : entries.entrySet()) {
            EntryDescriptor d = r.manifest().entry(e.getKey().name()).orElseThrow();
            assertThat(d.header().shape()).containsExactly(e.getKey().shape());
            ByteBuffer out = ByteBuffer.allocate(e.getValue().remaining());
            r.readEntry(d.name(), out);
            assertThat(out).isEqualTo(e.getValue());
        }
    }

    @Test
    void manifest_afterRoundTrip_carriesMetaVersionsAndFileName() throws IOException {
        EntryHeader h = new EntryHeader("x", ElementType.INT, new long[] {10}, Scope.LOCAL, Codec.NONE);
        Checkpoints.Written w = write("job-1/line-00000007/rank-0001.ilc", SMALL, null, Map.of(h, ByteBuffer.allocate(40)));

        Manifest m = open(w.bytes()).manifest();

        assertThat(m).isEqualTo(w.manifest());
        assertThat(m.meta()).isEqualTo(Checkpoints.meta(7));
        assertThat(m.formatVersion()).isEqualTo(1);
        assertThat(m.writerVersion()).isNotBlank().doesNotContain("${");
        assertThat(m.fileName()).isEqualTo("job-1/line-00000007/rank-0001.ilc");
        assertThat(m.referencedFiles()).isEmpty();
        assertThat(w.summary().fileBytes()).isEqualTo(w.bytes().length);
    }

    @Test
    void writeAndRead_realFileWithDirectBuffers_roundTripAndLeavePositionsAlone(@TempDir Path dir) throws IOException {
        Random rnd = new Random(7);
        int n = (3 << 20) + 12344;
        ByteBuffer src = Checkpoints.direct(Checkpoints.mixed(rnd, n, 100_000));
        src.position(16).limit(16 + 3 * (1 << 20));
        EntryHeader h = new EntryHeader("u", ElementType.DOUBLE, new long[] {3, 1 << 17}, Scope.LOCAL, Codec.NONE);
        Path file = dir.resolve("rank-0.ilc");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CheckpointWriter w = CheckpointWriter.open(ch, "rank-0.ilc", Checkpoints.meta(1), WriterOptions.DEFAULT, null);
            w.writeEntry(h, src);
            w.finish();
        }
        assertThat(src.position()).isEqualTo(16);

        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            CheckpointReader r = CheckpointReader.open(ch, file.toString(), ChunkResolver.NONE);
            ByteBuffer direct = ByteBuffer.allocateDirect(n + 8).position(8).limit(8 + (int) h.byteLength());
            ByteBuffer heap = ByteBuffer.allocate((int) h.byteLength());
            r.readEntry("u", direct);
            r.readEntry("u", heap);
            assertThat(direct.position()).isEqualTo(8);
            assertThat(direct).isEqualTo(src).isEqualTo(heap);
            assertThat(ch.position()).isZero();
        }
    }

    @Test
    void writeSummary_countsBytesAndChunkKinds() {
        EntryHeader zero = new EntryHeader("z", ElementType.BYTE, new long[] {10_000}, Scope.LOCAL, Codec.NONE);
        EntryHeader smooth = new EntryHeader("s", ElementType.DOUBLE, new long[] {64, 64}, Scope.LOCAL, Codec.ZSTD);
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        entries.put(zero, ByteBuffer.allocate(10_000));
        entries.put(smooth, Checkpoints.smoothDoubles(64, 64));

        WriteSummary s = write(SMALL, entries).summary();

        assertThat(s.rawBytes()).isEqualTo(10_000 + 64 * 64 * 8);
        assertThat(s.zeroChunks()).isEqualTo(3);
        assertThat(s.compressedChunks()).isEqualTo(8);
        assertThat(s.compressionSavedBytes()).isPositive();
        assertThat(s.referencedChunks()).isZero();
    }
}
