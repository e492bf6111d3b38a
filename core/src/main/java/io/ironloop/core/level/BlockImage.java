package io.ironloop.core.level;

import io.ironloop.format.CorruptCheckpointException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The snapshot of one block: the bytes its {@link io.ironloop.core.Snapshotable#save} wrote, with their
 * CRC32C. Images are checked on arrival at every level and again before use ({@link #verified}).
 *
 * <p>An image owns its buffer (usually direct, so that it goes to a partner's socket and comes from one without
 * a copy in the JVM): callers never change the bytes after creating the image, and read them through
 * {@link #bytes()}, a read-only view. No copy is made, because images of hundreds of MiB travel through every
 * level.
 */
public final class BlockImage {
    private final long blockId;
    private final ByteBuffer buffer;
    private final int crc32c;

    /**
     * @param blockId the block's id in its domain
     * @param bytes the snapshot bytes, from position to limit (taken over, not copied)
     * @param crc32c CRC32C of those bytes
     */
    public BlockImage(long blockId, ByteBuffer bytes, int crc32c) {
        this.blockId = blockId;
        Objects.requireNonNull(bytes, "bytes");
        // the buffer itself when it is all image, so that the owner gives back the very buffer it took from a pool
        this.buffer = bytes.position() == 0 && bytes.limit() == bytes.capacity() ? bytes : bytes.slice();
        this.crc32c = crc32c;
    }

    /** An image of {@code bytes} from position to limit (taken over, not copied), with its checksum computed here. */
    public static BlockImage of(long blockId, ByteBuffer bytes) {
        return new BlockImage(blockId, bytes, crc(bytes));
    }

    /** An image of {@code bytes} (taken over, not copied), with its checksum computed here. */
    public static BlockImage of(long blockId, byte[] bytes) {
        return of(blockId, ByteBuffer.wrap(bytes));
    }

    /** CRC32C of the bytes of {@code bytes} from position to limit (its position is left alone). */
    public static int crc(ByteBuffer bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes.duplicate());
        return (int) c.getValue();
    }

    /** The block's id in its domain ({@link Snapshot#LOOP_STATE} for a loop's own state). */
    public long blockId() {
        return blockId;
    }

    /** The bytes: a read-only view, position 0, limit {@link #length()}. */
    public ByteBuffer bytes() {
        return buffer.asReadOnlyBuffer().clear();
    }

    /** CRC32C of the bytes. */
    public int crc32c() {
        return crc32c;
    }

    /** The buffer itself, for the level that owns it and gives it back to a pool once nothing refers to the image. */
    ByteBuffer buffer() {
        return buffer;
    }

    /**
     * This image after checking its bytes against its checksum.
     *
     * @param where where the image came from (a level, a rank), for the message
     * @throws CorruptCheckpointException if the bytes do not match
     */
    public BlockImage verified(String where) {
        int actual = crc(bytes());
        if (actual != crc32c) {
            throw new CorruptCheckpointException(where, 0, String.format(
                    "block %d's snapshot (%d bytes) fails its CRC32C: stored %08x, computed %08x", blockId, length(), crc32c, actual));
        }
        return this;
    }

    /** Number of bytes. */
    public int length() {
        return buffer.capacity();
    }

    /** Whether both hold the same block id, checksum and bytes. */
    @Override
    public boolean equals(Object o) {
        return o instanceof BlockImage i && i.blockId == blockId && i.crc32c == crc32c && i.bytes().equals(bytes());
    }

    @Override
    public int hashCode() {
        return Long.hashCode(blockId) * 31 + crc32c;
    }

    @Override
    public String toString() {
        return "BlockImage[block=" + blockId + ", bytes=" + length() + ", crc=" + Integer.toHexString(crc32c) + "]";
    }
}
