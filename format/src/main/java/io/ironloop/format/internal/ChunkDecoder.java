package io.ironloop.format.internal;

import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.Codec;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.ElementType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Reads and decodes chunks into a target buffer, verifying each chunk's CRC32C over the stored bytes.
 * Uncompressed chunks pass through one reusable direct buffer piece by piece (CRC'd while cache-hot,
 * then copied), so the target holds unverified bytes only when the chunk's check then fails and an
 * exception says so; compressed chunks are checked in full before a bounds-checked decompressor, whose
 * output length is checked, sees them. Buffers grow to the largest chunk seen, which the manifest
 * checks limit to the chunk size. Not thread-safe: one decoder per reader.
 */
public final class ChunkDecoder implements AutoCloseable {
    /**
     * Uncompressed chunks are read in pieces of at most this size into one reusable direct buffer,
     * checksummed while the piece is in cache and copied to the target. Measured here, that costs less
     * CPU than a kernel copy straight into a large target, and it bounds the buffer for 64 MiB chunks.
     */
    static final int PIECE = 1 << 20;
    private final Compression compression = new Compression(0);
    private final CRC32C crc = new CRC32C();
    private ByteBuffer io = ByteBuffer.allocateDirect(0);
    private ByteBuffer chunk = ByteBuffer.allocateDirect(0);
    private byte[] stored = new byte[0];
    private byte[] decoded = new byte[0];
    private byte[] raw = new byte[0];

    /**
     * Decodes chunk {@code c} into {@code target[at, at + c.rawLength())} (absolute indices; the
     * target's position and limit are not used or changed).
     *
     * @param where the chunk's description for messages
     * @throws ChecksumMismatchException when the stored bytes do not match their CRC32C
     * @throws CorruptCheckpointException when they do not decode to exactly {@code rawLength} bytes
     */
    public void decode(ChunkDescriptor c, ChunkSources.Source src, ByteBuffer target, int at, ElementType type, String where)
            throws IOException {
        int len = (int) c.rawLength();
        if (c.zero()) {
            ZeroBytes.fill(target, at, len);
            return;
        }
        if (c.codec() == Codec.NONE) {
            check(c, src, crcInPieces(c, src, target, at), where);
            return;
        }
        int storedLength = (int) c.storedLength();
        ByteBuffer in = readStored(c, src, where);
        if (stored.length < storedLength) {
            stored = new byte[storedLength];
        }
        in.get(0, stored, 0, storedLength);
        if (decoded.length < len) {
            decoded = new byte[len];
        }
        int n;
        try {
            n = compression.decompress(c.codec(), stored, storedLength, decoded, len);
        } catch (RuntimeException e) {
            throw new CorruptCheckpointException(src.name(), c.offset(), where + " does not decompress with " + c.codec()
                    + " although its CRC32C holds: " + e.getMessage(), e);
        }
        if (n != len) {
            throw new CorruptCheckpointException(src.name(), c.offset(), where + " decompresses to " + n
                    + " bytes instead of " + len);
        }
        byte[] result = decoded;
        if (c.shuffled()) {
            if (raw.length < len) {
                raw = new byte[len];
            }
            ByteShuffle.unshuffle(decoded, raw, len, type.width());
            result = raw;
        }
        target.put(at, result, 0, len);
    }

    /**
     * Reads, verifies and decodes chunk {@code c} into a reusable buffer and returns a read-only view of
     * its {@code rawLength} bytes, valid until the next call.
     *
     * @param where the chunk's description for messages
     * @throws ChecksumMismatchException when the stored bytes do not match their CRC32C
     * @throws CorruptCheckpointException when they do not decode to exactly {@code rawLength} bytes
     */
    public ByteBuffer decodeChunk(ChunkDescriptor c, ChunkSources.Source src, ElementType type, String where) throws IOException {
        int len = (int) c.rawLength();
        if (chunk.capacity() < len) {
            chunk = ByteBuffer.allocateDirect(len);
        }
        ByteBuffer out = chunk.clear().limit(len);
        if (c.zero()) {
            ZeroBytes.fill(out, 0, len);
        } else if (c.codec() == Codec.NONE) {
            ChannelIo.readFully(src.channel(), c.offset(), out, src.name());
            out.flip();
            check(c, src, out, where);
        } else {
            decode(c, src, out, 0, type, where);
        }
        return out.position(0).limit(len).asReadOnlyBuffer();
    }

    /**
     * Reads {@code c}'s stored bytes in pieces of at most {@link #PIECE} through the reusable direct
     * buffer, returning their CRC32C and, when {@code target} is not null, copying each piece to
     * {@code target} from index {@code at} on while it is still in cache.
     */
    private int crcInPieces(ChunkDescriptor c, ChunkSources.Source src, ByteBuffer target, int at) throws IOException {
        int len = (int) c.storedLength();
        crc.reset();
        for (int done = 0; done < len; ) {
            int n = Math.min(PIECE, len - done);
            ByteBuffer piece = io(n);
            ChannelIo.readFully(src.channel(), c.offset() + done, piece, src.name());
            piece.flip();
            crc.update(piece.duplicate());
            if (target != null) {
                target.put(at + done, piece, 0, n);
            }
            done += n;
        }
        return (int) crc.getValue();
    }

    private ByteBuffer readStored(ChunkDescriptor c, ChunkSources.Source src, String where) throws IOException {
        ByteBuffer dst = io((int) c.storedLength());
        ChannelIo.readFully(src.channel(), c.offset(), dst, src.name());
        dst.flip();
        check(c, src, dst, where);
        return dst;
    }

    private void check(ChunkDescriptor c, ChunkSources.Source src, ByteBuffer stored, String where) {
        crc.reset();
        crc.update(stored.duplicate());
        check(c, src, (int) crc.getValue(), where);
    }

    private static void check(ChunkDescriptor c, ChunkSources.Source src, int computed, String where) {
        if (computed != c.crc32c()) {
            throw new ChecksumMismatchException(src.name(), c.offset(), where + " (" + c.storedLength() + " stored bytes)",
                    c.crc32c(), computed);
        }
    }

    private ByteBuffer io(int length) {
        if (io.capacity() < length) {
            io = ByteBuffer.allocateDirect(length);
        }
        return io.clear().limit(length);
    }

    @Override
    public void close() {
        compression.close();
    }
}
