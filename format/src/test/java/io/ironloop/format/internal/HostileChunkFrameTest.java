package io.ironloop.format.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.Checkpoints;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * Chunks whose CRC32C holds but whose bytes are hostile compressed frames: {@link CheckpointReader#verify()} must
 * accept exactly what {@link CheckpointReader#readEntry} accepts, because verify and restore share the decoder.
 * Entry "c" of {@link Forge#valid()} is one ZSTD chunk of 4096 raw bytes and the last stored chunk, so its stored
 * bytes can be replaced by anything of 1 to 4096 bytes, with the manifest's storedLength, codec and crc32c updated.
 */
class HostileChunkFrameTest {
    private static final Pattern LAST_CHUNK = Pattern.compile(
            "\\{\"index\":0,\"rawLength\":4096,\"file\":null,\"offset\":(\\d+),\"storedLength\":(\\d+),\"codec\":\"ZSTD\",\"shuffled\":(true|false),\"zero\":false,\"crc32c\":(\\d+),");
    private static final int RAW = 4096;

    /** The valid file's parts, with where entry "c"'s chunk sits. */
    private static final Forge.Parts PARTS = Forge.split(Forge.valid());
    private static final Matcher CHUNK = matchLastChunk();

    private static Matcher matchLastChunk() {
        Matcher m = LAST_CHUNK.matcher(PARTS.json());
        assertThat(m.find()).as(PARTS.json()).isTrue();
        return m;
    }

    private static byte[] storedFrame() {
        int at = Integer.parseInt(CHUNK.group(1)) - Layout.PAYLOAD_START;
        return Arrays.copyOfRange(PARTS.payload(), at, at + Integer.parseInt(CHUNK.group(2)));
    }

    /** The valid file with entry "c"'s stored bytes replaced by {@code stored}, labelled {@code codec}, CRC made to hold. */
    static byte[] withChunk(byte[] stored, String codec) {
        assertThat(stored.length).isBetween(1, RAW);
        int at = Integer.parseInt(CHUNK.group(1)) - Layout.PAYLOAD_START;
        byte[] payload = Arrays.copyOf(PARTS.payload(), at + stored.length);
        System.arraycopy(stored, 0, payload, at, stored.length);
        CRC32C crc = new CRC32C();
        crc.update(stored);
        String chunk = "{\"index\":0,\"rawLength\":4096,\"file\":null,\"offset\":" + CHUNK.group(1) + ",\"storedLength\":" + stored.length
                + ",\"codec\":\"" + codec + "\",\"shuffled\":" + CHUNK.group(3) + ",\"zero\":false,\"crc32c\":" + crc.getValue() + ",";
        String json = PARTS.json().substring(0, CHUNK.start()) + chunk + PARTS.json().substring(CHUNK.end());
        return Forge.file(FileHeader.CURRENT, payload, json);
    }

    /** A zstd frame whose header claims {@code contentSize} bytes, holding one raw block of {@code block}. */
    static byte[] zstdFrameClaiming(long contentSize, byte[] block) {
        ByteBuffer b = ByteBuffer.allocate(4 + 1 + 8 + 3 + block.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xFD2FB528);
        b.put((byte) 0xE0); // 8-byte frame content size, single segment, no checksum, no dictionary
        b.putLong(contentSize);
        int blockHeader = (block.length << 3) | 1; // last block, raw
        b.put((byte) blockHeader).put((byte) (blockHeader >>> 8)).put((byte) (blockHeader >>> 16));
        return b.put(block).array();
    }

    /** What verify and a read say about one file: the problems, and the read's failure or null. */
    record Outcome(List<CorruptCheckpointException> verified, Exception read) {
        static Outcome of(byte[] file) throws IOException {
            CheckpointReader reader = Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE);
            List<CorruptCheckpointException> problems = reader.verify();
            Exception failure = null;
            try {
                Checkpoints.readAll(Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE));
            } catch (CorruptCheckpointException e) {
                failure = e;
            }
            return new Outcome(problems, failure);
        }
    }

    private static void assertBothReject(byte[] file, String expected) throws IOException {
        Outcome o = Outcome.of(file);
        assertThat(o.read()).as("readEntry").isInstanceOf(CorruptCheckpointException.class);
        assertThat(o.verified()).as("verify").singleElement().satisfies(e -> {
            assertThat(e.file()).isEqualTo(Forge.NAME);
            assertThat(e.offset()).isEqualTo(Long.parseLong(CHUNK.group(1)));
            assertThat(e.getMessage()).contains("chunk 0 of entry 'c'").contains(expected);
        });
    }

    @Test
    void verify_frameClaimingTwoToTheFortyBytes_failsLikeARead() throws IOException {
        byte[] frame = zstdFrameClaiming(1L << 40, new byte[64]);

        assertBothReject(withChunk(frame, "ZSTD"), "does not decompress with ZSTD although its CRC32C holds");
    }

    @Test
    void verify_truncatedFrame_failsLikeARead() throws IOException {
        byte[] frame = storedFrame();

        assertBothReject(withChunk(Arrays.copyOf(frame, frame.length / 2), "ZSTD"), "although its CRC32C holds");
    }

    @Test
    void verify_rawBytesRelabelledZstd_failsLikeARead() throws IOException {
        byte[] raw = new byte[RAW];
        new Random(11).nextBytes(raw);

        assertBothReject(withChunk(raw, "ZSTD"), "although its CRC32C holds");
    }

    @Test
    void verify_frameOfTooFewBytes_failsLikeARead() throws IOException {
        byte[] frame = Zstd.compress(new byte[100]);

        assertBothReject(withChunk(frame, "ZSTD"), "decompresses to 100 bytes instead of 4096");
    }

    @Test
    void verify_frameOfTooManyBytes_failsLikeARead() throws IOException {
        byte[] frame = Zstd.compress(new byte[2 * RAW]);

        assertBothReject(withChunk(frame, "ZSTD"), "although its CRC32C holds");
    }

    @Test
    void verify_truncatedLz4Block_failsLikeARead() throws IOException {
        byte[] block = LZ4Factory.fastestInstance().fastCompressor().compress(new byte[RAW]);

        assertBothReject(withChunk(Arrays.copyOf(block, block.length - 3), "LZ4"), "although its CRC32C holds");
    }

    @Test
    void verify_pristineFrame_passesAndReads() throws IOException {
        Outcome o = Outcome.of(withChunk(storedFrame(), "ZSTD"));

        assertThat(o.verified()).isEmpty();
        assertThat(o.read()).isNull();
    }

    /**
     * Seeded hostile frames of every kind (mutated, truncated, extended and random frames, relabelled codecs):
     * whatever the decoder makes of each, verify reports a problem exactly when a read fails, and never throws
     * anything but its report.
     */
    @Test
    void verify_seededHostileFrames_agreesWithReadEveryTime() throws IOException {
        Random rnd = new Random(20261123);
        byte[] good = storedFrame();
        int rejected = 0;
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            byte[] frame;
            switch (i % 5) {
                case 0 -> {
                    frame = good.clone();
                    for (int flips = 1 + rnd.nextInt(4); flips > 0; flips--) {
                        frame[rnd.nextInt(frame.length)] ^= (byte) (1 << rnd.nextInt(8));
                    }
                }
                case 1 -> frame = Arrays.copyOf(good, 1 + rnd.nextInt(good.length));
                case 2 -> frame = zstdFrameClaiming(rnd.nextBoolean() ? rnd.nextLong() & Long.MAX_VALUE : RAW + rnd.nextInt(3) - 1,
                        new byte[rnd.nextInt(RAW - 16)]);
                case 3 -> {
                    frame = new byte[1 + rnd.nextInt(RAW)];
                    rnd.nextBytes(frame);
                }
                default -> frame = Zstd.compress(new byte[rnd.nextInt(3 * RAW)]);
            }
            String codec = rnd.nextInt(4) == 0 ? "LZ4" : "ZSTD";
            Outcome o = Outcome.of(withChunk(frame, codec));
            if (o.verified().isEmpty() != (o.read() == null)) {
                disagreements.add("case " + i + " (" + codec + ", " + frame.length + " bytes): verify " + o.verified() + ", read " + o.read());
            }
            rejected += o.read() == null ? 0 : 1;
        }
        assertThat(disagreements).isEmpty();
        assertThat(rejected).as("most hostile frames are rejected").isGreaterThan(300);
    }

    @Test
    void verify_rawChunkRelabelledZstd_failsLikeARead() throws IOException {
        String first = "{\"index\":0,\"rawLength\":4096,\"file\":null,\"offset\":4096,\"storedLength\":4096,\"codec\":\"NONE\"";
        assertThat(PARTS.json()).contains(first);
        byte[] file = Forge.file(FileHeader.CURRENT, PARTS.payload(), PARTS.json().replace(first, first.replace("NONE", "ZSTD")));

        Outcome o = Outcome.of(file);

        assertThat(o.read()).isInstanceOf(CorruptCheckpointException.class);
        assertThat(o.verified()).singleElement().satisfies(e -> assertThat(e.getMessage()).contains("chunk 0 of entry 'a'")
                .contains("does not decompress with ZSTD"));
        assertThatThrownBy(() -> Checkpoints.readAll(Checkpoints.open(file, Forge.NAME, ChunkResolver.NONE)))
                .hasMessageContaining("chunk 0 of entry 'a'");
    }
}
