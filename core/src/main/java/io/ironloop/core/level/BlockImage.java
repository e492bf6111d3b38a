package io.ironloop.core.level;

import io.ironloop.format.CorruptCheckpointException;
import java.util.zip.CRC32C;

/**
 * The snapshot of one block: the bytes its {@link io.ironloop.core.Snapshotable#save} wrote, with their
 * CRC32C. Images are checked on arrival at every level and again before use ({@link #verified}).
 *
 * <p>An image owns its array: callers never modify {@code bytes} after creating the image (no copy is made,
 * because images of hundreds of MiB travel through every level).
 *
 * @param blockId the block's id in its domain
 * @param bytes the snapshot bytes (not copied)
 * @param crc32c CRC32C of {@code bytes}
 */
public record BlockImage(long blockId, byte[] bytes, int crc32c) {

    /** An image of {@code bytes} (taken over, not copied), with its checksum computed here. */
    public static BlockImage of(long blockId, byte[] bytes) {
        return new BlockImage(blockId, bytes, crc(bytes));
    }

    /** CRC32C of {@code bytes}. */
    public static int crc(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, bytes.length);
        return (int) c.getValue();
    }

    /**
     * This image after checking its bytes against its checksum.
     *
     * @param where where the image came from (a level, a rank), for the message
     * @throws CorruptCheckpointException if the bytes do not match
     */
    public BlockImage verified(String where) {
        int actual = crc(bytes);
        if (actual != crc32c) {
            throw new CorruptCheckpointException(where, 0, String.format(
                    "block %d's snapshot (%d bytes) fails its CRC32C: stored %08x, computed %08x", blockId, bytes.length, crc32c, actual));
        }
        return this;
    }

    /** Number of bytes. */
    public int length() {
        return bytes.length;
    }

    @Override
    public String toString() {
        return "BlockImage[block=" + blockId + ", bytes=" + bytes.length + ", crc=" + Integer.toHexString(crc32c) + "]";
    }
}
