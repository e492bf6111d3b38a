package io.ironloop.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CheckpointWriter#writeEntry(EntryHeader, ChunkSource)} writes exactly the file that
 * {@link CheckpointWriter#writeEntry(EntryHeader, ByteBuffer)} writes for the same bytes (seeded random entries,
 * chunk sizes, codecs, full and differential), asking its source for every chunk once, in order.
 */
class StreamingWriteTest {
    /** The property round trip's seeds: the same random files, written both ways. */
    static LongStream seeds() {
        return PropertyRoundTripTest.seeds().limit(60);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void writeEntryFromSource_randomEntries_sameFileAsFromBuffer(long seed) throws IOException {
        Random rnd = new Random(seed);
        int[] sizes = PropertyRoundTripTest.CHUNK_SIZES;
        WriterOptions options = new WriterOptions(sizes[rnd.nextInt(sizes.length)], 1 + rnd.nextInt(5), rnd.nextBoolean());
        Map<EntryHeader, ByteBuffer> first = PropertyRoundTripTest.randomEntries(rnd, options.chunkSize());
        Checkpoints.Written a = Checkpoints.write("p/a.ilc", options, null, first);
        assertThat(streamed("p/a.ilc", options, null, first)).isEqualTo(a.bytes());

        Map<EntryHeader, ByteBuffer> second = PropertyRoundTripTest.modify(first, rnd);
        Checkpoints.Written b = Checkpoints.write("p/b.ilc", options, a.manifest(), second);
        assertThat(streamed("p/b.ilc", options, a.manifest(), second)).isEqualTo(b.bytes());
    }

    private static byte[] streamed(String name, WriterOptions options, Manifest previous, Map<EntryHeader, ByteBuffer> entries)
            throws IOException {
        MemoryChannel ch = new MemoryChannel();
        CheckpointWriter w = CheckpointWriter.open(ch, name, Checkpoints.meta(7), options, previous);
        for (Map.Entry<EntryHeader, ByteBuffer> e : entries.entrySet()) {
            ByteBuffer data = e.getValue().duplicate();
            List<Long> asked = new ArrayList<>();
            w.writeEntry(e.getKey(), (offset, into) -> {
                asked.add(offset);
                assertThat(into.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
                assertThat(into.remaining()).isEqualTo((int) Math.min(options.chunkSize(), data.remaining() - offset));
                into.put(data.slice((int) offset, into.remaining()));
            });
            long chunks = (data.remaining() + options.chunkSize() - 1) / options.chunkSize();
            assertThat(asked).as(e.getKey().name()).isEqualTo(LongStream.range(0, chunks).map(i -> i * options.chunkSize()).boxed().toList());
        }
        w.finish();
        return ch.toByteArray();
    }
}
