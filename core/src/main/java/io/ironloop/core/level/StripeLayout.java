package io.ironloop.core.level;

import io.ironloop.format.CorruptCheckpointException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A snapshot as the one byte stream an {@link ErasureLevel} cuts into segments: a header, then the images'
 * bytes in order. Header, little-endian: {@code int magic "ILEC"}, {@code int owner world rank},
 * {@code long iteration}, {@code int count}, per image {@code long block id, int length, int crc32c}, then
 * {@code int crc32c} of the header bytes before it. The stream is never copied to be sent: {@link #pieces}
 * are views of the header and of the images themselves.
 */
final class StripeLayout {
    static final int MAGIC = 0x4345_4C49; // "ILEC" read little-endian
    private static final int FIXED = Integer.BYTES * 3 + Long.BYTES;
    private static final int PER_IMAGE = Long.BYTES + Integer.BYTES * 2;

    private final List<ByteBuffer> parts = new ArrayList<>();
    private final long length;

    StripeLayout(Snapshot s) {
        ByteBuffer h = ByteBuffer.allocate(FIXED + s.images().size() * PER_IMAGE + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(MAGIC).putInt(s.ownerWorldRank()).putLong(s.iteration()).putInt(s.images().size());
        for (BlockImage i : s.images()) {
            h.putLong(i.blockId()).putInt(i.length()).putInt(i.crc32c());
        }
        CRC32C crc = new CRC32C();
        crc.update(h.array(), 0, h.position());
        h.putInt((int) crc.getValue()).flip();
        parts.add(h.asReadOnlyBuffer());
        long n = h.remaining();
        for (BlockImage i : s.images()) {
            parts.add(i.bytes());
            n += i.length();
        }
        this.length = n;
    }

    /** The stream's length in bytes. */
    long length() {
        return length;
    }

    /**
     * Views of bytes {@code [from, to)} of the stream, none longer than {@code chunk} and none crossing a
     * multiple of {@code chunk} counted from {@code from}, so a receiver can fill one chunk at a time.
     */
    List<ByteBuffer> pieces(long from, long to, int chunk) {
        List<ByteBuffer> out = new ArrayList<>();
        long at = 0;
        for (ByteBuffer part : parts) {
            long start = Math.max(from, at);
            long end = Math.min(to, at + part.remaining());
            while (start < end) {
                long boundary = from + ((start - from) / chunk + 1) * chunk;
                long stop = Math.min(end, boundary);
                out.add(part.slice((int) (start - at), (int) (stop - start)));
                start = stop;
            }
            at += part.remaining();
        }
        return out;
    }

    /**
     * The snapshot a rebuilt stream holds; its images are views of {@code stream} (copies where one crosses a part's
     * end), checked by the caller.
     *
     * @throws CorruptCheckpointException if the header is damaged or does not match the stream's length
     */
    static Snapshot parse(RebuiltStream stream, String where) {
        if (stream.length() < FIXED + Integer.BYTES || stream.slice(0, FIXED).order(ByteOrder.LITTLE_ENDIAN).getInt(0) != MAGIC) {
            throw new CorruptCheckpointException(where, 0, "the stream does not start with a stripe header");
        }
        int count = stream.slice(0, FIXED).order(ByteOrder.LITTLE_ENDIAN).getInt(Integer.BYTES * 2 + Long.BYTES);
        long headerLength = FIXED + (long) count * PER_IMAGE + Integer.BYTES;
        if (count < 0 || headerLength > stream.length() || headerLength > Integer.MAX_VALUE) {
            throw new CorruptCheckpointException(where, 0, "the stripe header announces " + count + " images");
        }
        ByteBuffer b = stream.slice(0, (int) headerLength).order(ByteOrder.LITTLE_ENDIAN);
        int h = (int) headerLength - Integer.BYTES;
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().limit(h));
        if ((int) crc.getValue() != b.getInt(h)) {
            throw new CorruptCheckpointException(where, 0, String.format("the stripe header fails its CRC32C: stored %08x, computed %08x",
                    b.getInt(h), (int) crc.getValue()));
        }
        int owner = b.getInt(Integer.BYTES);
        long iteration = b.getLong(Integer.BYTES * 2);
        List<BlockImage> images = new ArrayList<>(count);
        long at = headerLength;
        for (int i = 0; i < count; i++) {
            int entry = FIXED + i * PER_IMAGE;
            int length = b.getInt(entry + Long.BYTES);
            if (length < 0 || at + length > stream.length()) {
                throw new CorruptCheckpointException(where, 0, "image " + i + " of " + length + " bytes runs past the stream's end");
            }
            images.add(new BlockImage(b.getLong(entry), stream.slice(at, length), b.getInt(entry + Long.BYTES + Integer.BYTES)));
            at += length;
        }
        return new Snapshot(owner, iteration, images);
    }
}
