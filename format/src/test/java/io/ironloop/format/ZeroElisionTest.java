package io.ironloop.format;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

import static io.ironloop.format.Checkpoints.open;
import static io.ironloop.format.Checkpoints.write;
import static org.assertj.core.api.Assertions.assertThat;

class ZeroElisionTest {
    private static final WriterOptions OPTIONS = new WriterOptions(64 << 10, 3, false);

    @Test
    void writeEntry_allZeroEntry_storesNoPayload() throws IOException {
        EntryHeader h = new EntryHeader("z", ElementType.DOUBLE, new long[] {1 << 20}, Scope.LOCAL, Codec.NONE);

        Checkpoints.Written w = write(OPTIONS, Map.of(h, ByteBuffer.allocateDirect(8 << 20)));

        assertThat(w.summary().zeroChunks()).isEqualTo(128);
        assertThat(w.bytes().length).isLessThan(32 << 10);
        assertThat(w.manifest().entries().get(0).chunks()).allSatisfy(c -> {
            assertThat(c.zero()).isTrue();
            assertThat(c.offset()).isEqualTo(-1);
            assertThat(c.storedLength()).isZero();
        });
        ByteBuffer out = ByteBuffer.allocate(8 << 20);
        Arrays.fill(out.array(), (byte) 0x55);
        open(w.bytes()).readEntry("z", out);
        assertThat(out).isEqualTo(ByteBuffer.allocate(8 << 20));
    }

    @Test
    void writeEntry_zeroChunksBetweenDataChunks_elidesOnlyTheZeroOnes() throws IOException {
        int chunk = OPTIONS.chunkSize();
        ByteBuffer data = ByteBuffer.allocate(5 * chunk + 100);
        data.put(chunk + 7, (byte) 1);            // chunk 1 has one non-zero byte
        data.put(5 * chunk + 99, (byte) 2);       // the short last chunk too
        data.put(3 * chunk, (byte) 3);            // chunk 3 at its first byte
        EntryHeader h = new EntryHeader("sparse", ElementType.BYTE, new long[] {data.remaining()}, Scope.GLOBAL, Codec.LZ4);

        Checkpoints.Written w = write(OPTIONS, Map.of(h, data));

        assertThat(w.manifest().entries().get(0).chunks()).extracting(ChunkDescriptor::zero)
                .containsExactly(true, false, true, false, true, false);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.remaining());
        open(w.bytes()).readEntry("sparse", direct);
        assertThat(direct).isEqualTo(data);
    }
}
