package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.format.CheckpointWriter;
import io.ironloop.format.Codec;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Scope;
import io.ironloop.format.WriterOptions;
import io.ironloop.format.internal.FileTrailer;
import io.ironloop.format.internal.Layout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Malicious (not merely damaged) checkpoint files for the tool tests, with every CRC made to hold: a chunk whose
 * stored bytes are a hostile compressed frame, and a small file whose manifest claims a huge entry of zero chunks.
 */
final class ForgedCheckpoints {
    private ForgedCheckpoints() {
    }

    /**
     * A zstd frame of exactly {@code length} bytes whose header claims 2^40 bytes of content, with its CRC32C's
     * decimal digits as many as {@code digitsLike}'s, so the manifest keeps its length when the CRC is replaced.
     */
    static byte[] zstdFrameClaiming2To40(int length, long digitsLike) {
        assertThat(length).isGreaterThanOrEqualTo(17);
        Random rnd = new Random(40);
        while (true) {
            ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0xFD2FB528).put((byte) 0xE0).putLong(1L << 40); // 8-byte content size, single segment
            int block = length - b.position() - 3;
            int header = (block << 3) | 1; // the last block, raw
            b.put((byte) header).put((byte) (header >>> 8)).put((byte) (header >>> 16));
            byte[] filler = new byte[block];
            rnd.nextBytes(filler);
            byte[] frame = b.put(filler).array();
            if (Long.toString(crc(frame)).length() == Long.toString(digitsLike).length()) {
                return frame;
            }
        }
    }

    /**
     * Replaces the stored bytes of chunk {@code index} of {@code entry}, a ZSTD chunk stored in {@code file} itself, with a frame
     * claiming 2^40 bytes, and updates the chunk's CRC32C, the manifest's and the trailer's: the file keeps its size
     * and every checksum holds, but the chunk does not decode.
     *
     * @return the chunk's offset in the file
     */
    static long plantHostileFrame(Path file, String entry, int index) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer trailer = ByteBuffer.wrap(bytes, bytes.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        int manifestOffset = (int) trailer.getLong(Layout.T_MANIFEST_OFFSET);
        int manifestLength = (int) trailer.getLong(Layout.T_MANIFEST_LENGTH);
        String json = new String(bytes, manifestOffset, manifestLength, StandardCharsets.UTF_8);
        int entryAt = json.indexOf("{\"name\":\"" + entry + "\"");
        assertThat(entryAt).as("entry %s in %s", entry, json).isNotNegative();
        Matcher chunk = Pattern.compile("\\{\"index\":" + index + ",\"rawLength\":\\d+,\"file\":null,\"offset\":(\\d+),\"storedLength\":(\\d+),"
                + "\"codec\":\"ZSTD\",[^}]*?\"crc32c\":(\\d+)").matcher(json);
        assertThat(chunk.find(entryAt)).as("ZSTD chunk %d of %s stored in the file, in %s", index, entry, json).isTrue();
        int offset = Integer.parseInt(chunk.group(1));
        long oldCrc = Long.parseLong(chunk.group(3));
        byte[] frame = zstdFrameClaiming2To40(Integer.parseInt(chunk.group(2)), oldCrc);
        System.arraycopy(frame, 0, bytes, offset, frame.length);
        String forged = json.substring(0, chunk.start(3)) + crc(frame) + json.substring(chunk.end(3));
        byte[] manifest = forged.getBytes(StandardCharsets.UTF_8);
        assertThat(manifest.length).isEqualTo(manifestLength);
        System.arraycopy(manifest, 0, bytes, manifestOffset, manifest.length);
        byte[] sealed = new FileTrailer(manifestOffset, manifestLength, (int) crc(manifest)).encode().array();
        System.arraycopy(sealed, 0, bytes, bytes.length - Layout.TRAILER_SIZE, sealed.length);
        Files.write(file, bytes);
        return offset;
    }

    /**
     * Writes {@code root/rank-00000/line-000000000001.ilc}: a valid file of a few kilobytes whose one entry "field"
     * (doubles) claims {@code claimedBytes} of zero chunks of {@code chunkSize} bytes. It is written for a small
     * entry and its manifest then rewritten, so nothing of the claimed size is ever held in memory.
     *
     * @return the data file
     */
    static Path claimingZeros(Path root, long claimedBytes, int chunkSize) throws IOException {
        assertThat(claimedBytes % chunkSize).isZero();
        String name = "rank-00000/line-000000000001.ilc";
        Path file = Files.createDirectories(root.resolve("rank-00000")).resolve("line-000000000001.ilc");
        FileMeta meta = new FileMeta("forged", 1, 0, 1, "sha256:none", Instant.parse("2026-11-23T00:00:00Z"), Map.of());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CheckpointWriter w = CheckpointWriter.open(ch, name, meta, new WriterOptions(chunkSize, 3, false), null);
            w.writeEntry(new EntryHeader("field", ElementType.DOUBLE, new long[] {chunkSize / 8}, Scope.LOCAL, Codec.NONE),
                    ByteBuffer.allocate(chunkSize));
            w.finish();
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer trailer = ByteBuffer.wrap(bytes, bytes.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        int manifestOffset = (int) trailer.getLong(Layout.T_MANIFEST_OFFSET);
        int manifestLength = (int) trailer.getLong(Layout.T_MANIFEST_LENGTH);
        String json = new String(bytes, manifestOffset, manifestLength, StandardCharsets.UTF_8);
        Matcher one = Pattern.compile("\\{\"index\":0,[^}]*}").matcher(json);
        assertThat(one.find()).as(json).isTrue();
        String zeroChunk = one.group();
        assertThat(zeroChunk).contains("\"zero\":true");
        long chunks = claimedBytes / chunkSize;
        StringBuilder all = new StringBuilder();
        for (long i = 0; i < chunks; i++) {
            all.append(i == 0 ? "" : ",").append(zeroChunk.replace("{\"index\":0,", "{\"index\":" + i + ","));
        }
        String forged = json.substring(0, one.start()) + all + json.substring(one.end());
        forged = forged.replace("\"shape\":[" + chunkSize / 8 + "]", "\"shape\":[" + claimedBytes / 8 + "]")
                .replace("\"byteLength\":" + chunkSize, "\"byteLength\":" + claimedBytes);
        byte[] manifest = forged.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(manifestOffset + manifest.length + Layout.TRAILER_SIZE);
        out.put(bytes, 0, manifestOffset).put(manifest).put(new FileTrailer(manifestOffset, manifest.length, (int) crc(manifest)).encode());
        Files.write(file, out.array());
        return file;
    }

    private static long crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return c.getValue();
    }
}
