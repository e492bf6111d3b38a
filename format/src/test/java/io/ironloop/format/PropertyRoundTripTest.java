package io.ironloop.format;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property tests with seeded randomness: random entries (types, scopes, codecs, shapes, contents),
 * chunk sizes and buffer kinds, written fully and then differentially against a random modification,
 * always read back byte for byte, with the summary's counts matching the manifest.
 */
class PropertyRoundTripTest {
    static final int[] CHUNK_SIZES = {4096, 8192, 16384, 65536};

    static LongStream seeds() {
        return LongStream.range(0, 150).map(i -> 0x5EED_0000L + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void writeThenRead_randomFilesAndDifferentialSuccessors_roundTripExactly(long seed) throws IOException {
        Random rnd = new Random(seed);
        WriterOptions options = new WriterOptions(CHUNK_SIZES[rnd.nextInt(CHUNK_SIZES.length)], 1 + rnd.nextInt(5), rnd.nextBoolean());
        Map<EntryHeader, ByteBuffer> first = randomEntries(rnd, options.chunkSize());

        Checkpoints.Written a = Checkpoints.write("p/a.ilc", options, null, first);
        assertRoundTrip(a, first, rnd, ChunkResolver.NONE, options.chunkSize());

        Map<EntryHeader, ByteBuffer> second = modify(first, rnd);
        Checkpoints.Written b = Checkpoints.write("p/b.ilc", options, a.manifest(), second);
        assertRoundTrip(b, second, rnd, Checkpoints.resolver(Map.of("p/a.ilc", a.bytes())), options.chunkSize());
        if (!options.hashChunks()) {
            assertThat(b.summary().referencedChunks()).isZero();
        }
    }

    private static void assertRoundTrip(Checkpoints.Written w, Map<EntryHeader, ByteBuffer> entries, Random rnd,
                                        ChunkResolver resolver, int chunkSize) throws IOException {
        CheckpointReader r = Checkpoints.open(w.bytes(), "file", resolver);
        assertThat(r.verify()).isEmpty();
        assertThat(w.summary().fileBytes()).isEqualTo(w.bytes().length);
        assertThat(r.manifest()).isEqualTo(w.manifest());
        long raw = 0;
        long zero = 0;
        long referenced = 0;
        long compressed = 0;
        for (Map.Entry<EntryHeader, ByteBuffer> e : entries.entrySet()) {
            ByteBuffer expected = e.getValue();
            ByteBuffer target = rnd.nextBoolean() ? ByteBuffer.allocate(expected.remaining()) : ByteBuffer.allocateDirect(expected.remaining());
            r.readEntry(e.getKey().name(), target);
            assertThat(target).as(e.getKey().toString()).isEqualTo(expected);
            raw += expected.remaining();
            EntryDescriptor d = r.manifest().entry(e.getKey().name()).orElseThrow();
            for (ChunkDescriptor c : d.chunks()) {
                ByteBuffer rawChunk = expected.slice(c.index() * chunkSize, (int) c.rawLength());
                assertThat(c.zero()).isEqualTo(rawChunk.equals(ByteBuffer.allocate((int) c.rawLength())));
                zero += c.zero() ? 1 : 0;
                referenced += c.file() != null ? 1 : 0;
                compressed += c.file() == null && c.codec() != Codec.NONE ? 1 : 0;
            }
        }
        assertThat(w.summary().rawBytes()).isEqualTo(raw);
        assertThat(w.summary().zeroChunks()).isEqualTo(zero);
        assertThat(w.summary().referencedChunks()).isEqualTo(referenced);
        assertThat(w.summary().compressedChunks()).isEqualTo(compressed);
    }

    static Map<EntryHeader, ByteBuffer> randomEntries(Random rnd, int chunkSize) {
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        int count = rnd.nextInt(6);
        for (int i = 0; i < count; i++) {
            ElementType type = ElementType.values()[rnd.nextInt(ElementType.values().length)];
            long[] shape = new long[rnd.nextInt(4)];
            long elements = 1;
            for (int d = 0; d < shape.length; d++) {
                shape[d] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(d == 0 ? 20_000 : 12);
                elements *= shape[d];
            }
            if (elements * type.width() > 400_000) {
                shape = new long[] {rnd.nextInt(50_000)};
                elements = shape[0];
            }
            EntryHeader h = new EntryHeader("entry/" + i + "/" + type, type, shape, Scope.values()[rnd.nextInt(3)],
                    Codec.values()[rnd.nextInt(3)]);
            ByteBuffer data = content(rnd, (int) (elements * type.width()), chunkSize);
            entries.put(h, rnd.nextInt(3) == 0 ? Checkpoints.direct(data) : data);
        }
        return entries;
    }

    private static ByteBuffer content(Random rnd, int n, int chunkSize) {
        return switch (rnd.nextInt(4)) {
            case 0 -> Checkpoints.randomBytes(rnd, n);
            case 1 -> ByteBuffer.allocate(n);
            case 2 -> Checkpoints.mixed(rnd, n, chunkSize);
            default -> Checkpoints.mixed(rnd, n, 1 + rnd.nextInt(3 * chunkSize));
        };
    }

    /** The same entries with a few random bytes changed, a few entries dropped and a few regions zeroed. */
    static Map<EntryHeader, ByteBuffer> modify(Map<EntryHeader, ByteBuffer> before, Random rnd) {
        Map<EntryHeader, ByteBuffer> after = new LinkedHashMap<>();
        for (Map.Entry<EntryHeader, ByteBuffer> e : before.entrySet()) {
            if (rnd.nextInt(8) == 0) {
                continue;
            }
            ByteBuffer copy = ByteBuffer.allocate(e.getValue().remaining()).put(e.getValue().duplicate()).flip();
            int n = copy.remaining();
            for (int k = n == 0 ? 0 : rnd.nextInt(4); k > 0; k--) {
                int at = rnd.nextInt(n);
                if (rnd.nextBoolean()) {
                    copy.put(at, (byte) (copy.get(at) + 1 + rnd.nextInt(255)));
                } else {
                    int len = Math.min(n - at, rnd.nextInt(10_000));
                    copy.put(at, new byte[len]);
                }
            }
            after.put(e.getKey(), copy);
        }
        return after;
    }
}
