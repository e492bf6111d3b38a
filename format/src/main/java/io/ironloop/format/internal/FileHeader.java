package io.ironloop.format.internal;

import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.UnsupportedVersionException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The fixed-size header at offset 0 (see {@link Layout}): magic, major and minor version, flags and a
 * CRC32C over the header bytes before it.
 *
 * @param major the major format version
 * @param minor the minor format version
 * @param flags must-understand feature bits
 */
public record FileHeader(int major, int minor, int flags) {

    /** The header this code writes. */
    public static final FileHeader CURRENT = new FileHeader(Layout.MAJOR, Layout.MINOR, 0);

    /** The header's {@link Layout#HEADER_SIZE} bytes, ready to write (position 0, little-endian). */
    public ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(Layout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(Layout.H_MAGIC, Layout.headerMagic());
        b.putShort(Layout.H_MAJOR, (short) major);
        b.putShort(Layout.H_MINOR, (short) minor);
        b.putInt(Layout.H_FLAGS, flags);
        b.putInt(Layout.H_CRC, crc(b));
        return b;
    }

    /**
     * Validates and decodes a header: magic first, then the version (so a future major can change
     * everything after it), then the CRC, then the flags.
     *
     * @param b exactly {@link Layout#HEADER_SIZE} bytes from offset 0 of the file
     * @param file the file's name for messages
     * @throws UnsupportedVersionException for a major version other than {@link Layout#MAJOR}
     * @throws CorruptCheckpointException for bad magic, CRC or unknown flags
     */
    public static FileHeader decode(ByteBuffer b, String file) {
        b = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[Layout.MAGIC_SIZE];
        b.get(Layout.H_MAGIC, magic);
        if (!Arrays.equals(magic, Layout.headerMagic())) {
            throw new CorruptCheckpointException(file, Layout.H_MAGIC,
                    "not an Ironloop checkpoint file (bad magic " + hex(magic) + ")");
        }
        int major = Short.toUnsignedInt(b.getShort(Layout.H_MAJOR));
        int minor = Short.toUnsignedInt(b.getShort(Layout.H_MINOR));
        if (major != Layout.MAJOR) {
            throw new UnsupportedVersionException(file, Layout.H_MAJOR, major, minor, Layout.MAJOR);
        }
        int stored = b.getInt(Layout.H_CRC);
        int computed = crc(b);
        if (stored != computed) {
            throw new ChecksumMismatchException(file, 0, "the header", stored, computed);
        }
        int flags = b.getInt(Layout.H_FLAGS);
        if ((flags & ~Layout.KNOWN_FLAGS) != 0) {
            throw new CorruptCheckpointException(file, Layout.H_FLAGS, String.format(
                    "unknown header flags 0x%08x in format %d.%d; a newer Ironloop wrote this file", flags, major, minor));
        }
        return new FileHeader(major, minor, flags);
    }

    private static int crc(ByteBuffer header) {
        CRC32C crc = new CRC32C();
        crc.update(header.duplicate().position(0).limit(Layout.H_CRC));
        return (int) crc.getValue();
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte x : bytes) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }
}
