package io.ironloop.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static io.ironloop.format.Checkpoints.open;
import static io.ironloop.format.Checkpoints.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CompressionTest {
    private static final WriterOptions OPTIONS = new WriterOptions(1 << 20, 3, false);

    /** Compression ratio (raw / stored) of a field written as {@code type} (shuffled) and as OPAQUE (not shuffled). */
    private static double[] ratios(ByteBuffer field, ElementType type, Codec codec) {
        EntryHeader typed = new EntryHeader("u", type, new long[] {field.remaining() / type.width()}, Scope.LOCAL, codec);
        EntryHeader bytes = new EntryHeader("u", ElementType.OPAQUE, new long[] {field.remaining()}, Scope.LOCAL, codec);
        return new double[] {ratio(write(OPTIONS, Map.of(typed, field))), ratio(write(OPTIONS, Map.of(bytes, field)))};
    }

    @Test
    void writeEntry_smoothDoubleFieldWithShuffle_atLeastDoublesZstdRatio() throws IOException {
        ByteBuffer field = Checkpoints.smoothDoubles(512, 512);

        double[] r = ratios(field, ElementType.DOUBLE, Codec.ZSTD);

        assertThat(r[0]).as("ratio with shuffle %.2f vs without %.2f", r[0], r[1]).isGreaterThanOrEqualTo(2 * r[1]);
        EntryHeader asDoubles = new EntryHeader("u", ElementType.DOUBLE, new long[] {512, 512}, Scope.LOCAL, Codec.ZSTD);
        Checkpoints.Written w = write(OPTIONS, Map.of(asDoubles, field));
        assertThat(w.manifest().entries().get(0).chunks()).allSatisfy(c -> {
            assertThat(c.shuffled()).isTrue();
            assertThat(c.codec()).isEqualTo(Codec.ZSTD);
        });
        ByteBuffer out = ByteBuffer.allocate(field.remaining());
        open(w.bytes()).readEntry("u", out);
        assertThat(out).isEqualTo(field);
    }

    @Test
    void writeEntry_smoothFloatFieldWithShuffle_atLeastDoublesZstdRatio() {
        double[] r = ratios(Checkpoints.smoothFloats(512, 1024), ElementType.FLOAT, Codec.ZSTD);

        assertThat(r[0]).as("ratio with shuffle %.2f vs without %.2f", r[0], r[1]).isGreaterThanOrEqualTo(2 * r[1]);
    }

    @Test
    void writeEntry_fullPrecisionDoubleField_shuffleStillPaysWherePlainDoesNot() {
        double[] r = ratios(Checkpoints.fullPrecisionDoubles(512, 512), ElementType.DOUBLE, Codec.ZSTD);

        // the low mantissa bytes of computed doubles are noise: shuffling can only pack the exponent bytes
        assertThat(r[1]).as("without shuffle").isEqualTo(1.0);
        assertThat(r[0]).as("with shuffle").isGreaterThan(1.2);
    }

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"ZSTD", "LZ4"})
    void writeEntry_incompressibleChunks_storedRawWithCodecNone(Codec codec) throws IOException {
        ByteBuffer noise = Checkpoints.randomBytes(new Random(3), 3 << 20);
        EntryHeader h = new EntryHeader("noise", ElementType.LONG, new long[] {3 << 17}, Scope.LOCAL, codec);

        Checkpoints.Written w = write(OPTIONS, Map.of(h, noise));

        assertThat(w.summary().compressedChunks()).isZero();
        assertThat(w.manifest().entries().get(0).chunks()).allSatisfy(c -> {
            assertThat(c.codec()).isEqualTo(Codec.NONE);
            assertThat(c.shuffled()).isFalse();
            assertThat(c.storedLength()).isEqualTo(c.rawLength());
        });
        ByteBuffer out = ByteBuffer.allocate(noise.remaining());
        open(w.bytes()).readEntry("noise", out);
        assertThat(out).isEqualTo(noise);
    }

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"ZSTD", "LZ4"})
    void readEntry_mixOfCompressibleAndRandomChunks_decodesEachByItsOwnCodec(Codec codec) throws IOException {
        Random rnd = new Random(11);
        ByteBuffer data = ByteBuffer.allocate(4 << 20);
        data.put(Checkpoints.smoothDoubles(128, 1024)).put(Checkpoints.randomBytes(rnd, 1 << 20))
                .put(Checkpoints.smoothDoubles(128, 1024)).put(Checkpoints.randomBytes(rnd, 1 << 20)).flip();
        EntryHeader h = new EntryHeader("m", ElementType.DOUBLE, new long[] {1 << 19}, Scope.LOCAL, codec);

        Checkpoints.Written w = write(OPTIONS, Map.of(h, data));

        assertThat(w.manifest().entries().get(0).chunks()).extracting(ChunkDescriptor::codec)
                .containsExactly(codec, Codec.NONE, codec, Codec.NONE);
        assertThat(w.summary().compressedChunks()).isEqualTo(2);
        ByteBuffer heap = ByteBuffer.allocate(data.remaining());
        ByteBuffer direct = ByteBuffer.allocateDirect(data.remaining());
        CheckpointReader r = open(w.bytes());
        r.readEntry("m", heap);
        r.readEntry("m", direct);
        assertThat(heap).isEqualTo(data).isEqualTo(direct);
    }

    @Test
    void writeEntry_compressionAcrossEntries_reusesBuffersAndKeepsEntriesApart() throws IOException {
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        for (ElementType t : new ElementType[] {ElementType.SHORT, ElementType.INT, ElementType.FLOAT, ElementType.CHAR}) {
            ByteBuffer b = Checkpoints.mixed(new Random(t.ordinal()), 3 * (1 << 20) + 4 * 1000, 1 << 19);
            entries.put(new EntryHeader(t.name(), t, new long[] {b.remaining() / t.width()}, Scope.LOCAL, Codec.ZSTD), b);
        }

        CheckpointReader r = open(write(OPTIONS, entries).bytes());

        assertThat(Checkpoints.readAll(r).values()).containsExactlyElementsOf(entries.values());
    }

    /** The rows of the shuffle table in docs/format.md, both codecs, to the table's one decimal. */
    static Stream<Arguments> specificationShuffleTable() {
        return Stream.of(
                Arguments.of("velocity", Checkpoints.smoothDoubles(512, 512), ElementType.DOUBLE, 43.5, 3.8, 27.1, 2.4),
                Arguments.of("smooth floats", Checkpoints.smoothFloats(512, 1024), ElementType.FLOAT, 3.1, 1.3, 2.5, 1.0),
                Arguments.of("full precision", Checkpoints.fullPrecisionDoubles(512, 512), ElementType.DOUBLE, 1.3, 1.0, 1.3, 1.0),
                Arguments.of("0.01 grid", Checkpoints.gridTemperatures(512, 512), ElementType.DOUBLE, 4.8, 7.4, 2.9, 3.6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specificationShuffleTable")
    void writeEntry_specificationShuffleTable_ratiosAsPublished(String field, ByteBuffer data, ElementType type, double zstdShuffled,
                                                               double zstdPlain, double lz4Shuffled, double lz4Plain) {
        double[] zstd = ratios(data, type, Codec.ZSTD);
        double[] lz4 = ratios(data, type, Codec.LZ4);

        assertThat(new double[] {zstd[0], zstd[1], lz4[0], lz4[1]}).as("%s: zstd shuffled/plain, lz4 shuffled/plain", field)
                .containsExactly(new double[] {zstdShuffled, zstdPlain, lz4Shuffled, lz4Plain}, within(0.05));
    }

    private static double ratio(Checkpoints.Written w) {
        long stored = w.manifest().entries().get(0).chunks().stream().mapToLong(ChunkDescriptor::storedLength).sum();
        return (double) w.summary().rawBytes() / stored;
    }
}
