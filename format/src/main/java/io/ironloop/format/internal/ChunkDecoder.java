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
 * Reads and decodes chunks into a target buffer, verifying each chunk's CRC32C over the stored bytes
 * before anything else touches them. Uncompressed chunks are read straight into a direct target, or
 * into one reusable direct buffer (CRC'd while cache-hot, then copied) for a heap target; compressed
 * chunks go through reusable arrays and a bounds-checked decompressor whose output length is checked.
 * Buffers grow to the largest chunk seen, which the manifest checks limit to the chunk size. Not
 * thread-safe: one decoder per reader.
 */
public final class ChunkDecoder implements AutoCloseable {
    private final Compression compression = new Compression(0);
    private final CRC32C crc = new CRC32C();
    private ByteBuffer io = ByteBuffer.allocateDirect(0);
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
            ByteBuffer dst = target.isDirect() ? target.slice(at, len) : io(len);
            ChannelIo.readFully(src.channel(), c.offset(), dst, src.name());
            dst.flip();
            check(c, src, dst, where);
            if (!target.isDirect()) {
                target.put(at, dst, 0, len);
            }
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
     * Reads chunk {@code c}'s stored bytes and checks their CRC32C.
     *
     * @throws ChecksumMismatchException when they do not match
     */
    public void verify(ChunkDescriptor c, ChunkSources.Source src, String where) throws IOException {
        if (!c.zero()) {
            readStored(c, src, where);
        }
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
        int computed = (int) crc.getValue();
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
