package io.ironloop.format.internal;

import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.CorruptCheckpointException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The fixed-size trailer that ends every complete file (see {@link Layout}): where the manifest is, its
 * CRC32C, the trailer magic and a CRC32C over the trailer bytes before it.
 *
 * @param manifestOffset file offset of the manifest's first byte
 * @param manifestLength manifest bytes
 * @param manifestCrc CRC32C of the manifest bytes
 */
public record FileTrailer(long manifestOffset, long manifestLength, int manifestCrc) {

    /** The trailer's {@link Layout#TRAILER_SIZE} bytes, ready to write (position 0, little-endian). */
    public ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(Layout.TRAILER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(Layout.T_MANIFEST_OFFSET, manifestOffset);
        b.putLong(Layout.T_MANIFEST_LENGTH, manifestLength);
        b.putInt(Layout.T_MANIFEST_CRC, manifestCrc);
        b.put(Layout.T_MAGIC, Layout.trailerMagic());
        b.putInt(Layout.T_CRC, crc(b));
        return b;
    }

    /**
     * Validates and decodes a trailer and checks that the manifest it points to lies exactly between
     * the payload and the trailer.
     *
     * @param b exactly {@link Layout#TRAILER_SIZE} bytes read from the end of the file
     * @param file the file's name for messages
     * @param fileSize the file's size in bytes
     * @throws CorruptCheckpointException for bad magic or CRC (a truncated or unfinished file), or bounds
     */
    public static FileTrailer decode(ByteBuffer b, String file, long fileSize) {
        b = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long at = fileSize - Layout.TRAILER_SIZE;
        byte[] magic = new byte[Layout.MAGIC_SIZE];
        b.get(Layout.T_MAGIC, magic);
        if (!Arrays.equals(magic, Layout.trailerMagic())) {
            throw new CorruptCheckpointException(file, at + Layout.T_MAGIC,
                    "no trailer at the end of the file (magic " + FileHeader.hex(magic) + "): truncated, extended or never finished");
        }
        int stored = b.getInt(Layout.T_CRC);
        int computed = crc(b);
        if (stored != computed) {
            throw new ChecksumMismatchException(file, at, "the trailer", stored, computed);
        }
        long offset = b.getLong(Layout.T_MANIFEST_OFFSET);
        long length = b.getLong(Layout.T_MANIFEST_LENGTH);
        if (length < 2 || length > Layout.MAX_MANIFEST_BYTES) {
            throw new CorruptCheckpointException(file, at + Layout.T_MANIFEST_LENGTH,
                    "manifest length " + length + " is outside 2.." + Layout.MAX_MANIFEST_BYTES);
        }
        if (offset < Layout.PAYLOAD_START || offset != at - length) {
            throw new CorruptCheckpointException(file, at + Layout.T_MANIFEST_OFFSET, "manifest offset " + offset
                    + " with length " + length + " does not end where the trailer starts (" + at + ")");
        }
        return new FileTrailer(offset, length, b.getInt(Layout.T_MANIFEST_CRC));
    }

    private static int crc(ByteBuffer trailer) {
        CRC32C crc = new CRC32C();
        crc.update(trailer.duplicate().position(0).limit(Layout.T_CRC));
        return (int) crc.getValue();
    }
}
