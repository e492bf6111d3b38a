package io.ironloop.format.internal;

import java.nio.charset.StandardCharsets;

/**
 * The fixed byte layout of a checkpoint file and the limits a reader enforces (see
 * {@code docs/format.md}). Every offset is derived from the one before it, so the tables in the
 * specification and the code cannot drift apart field by field.
 */
public final class Layout {
    /** The major version this code writes and the only one it reads. */
    public static final int MAJOR = 1;
    /** The minor version this code writes; readers accept any minor of their major. */
    public static final int MINOR = 0;
    /** Header flags this version understands (none yet); any other set bit makes a reader reject the file. */
    public static final int KNOWN_FLAGS = 0;

    /** {@code 0x89 'I' 'R' 'O' 'N' '\r' '\n' 0x1A}: non-ASCII first byte, catches text-mode mangling. */
    private static final byte[] HEADER_MAGIC = {(byte) 0x89, 'I', 'R', 'O', 'N', '\r', '\n', 0x1A};
    /** {@code "ILTRAILR"}: marks the last bytes of a complete file. */
    private static final byte[] TRAILER_MAGIC = "ILTRAILR".getBytes(StandardCharsets.US_ASCII);
    public static final int MAGIC_SIZE = HEADER_MAGIC.length;

    // Header: magic | u16 major | u16 minor | u32 flags | u32 crc32c(header bytes before it)
    public static final int H_MAGIC = 0;
    public static final int H_MAJOR = H_MAGIC + MAGIC_SIZE;
    public static final int H_MINOR = H_MAJOR + Short.BYTES;
    public static final int H_FLAGS = H_MINOR + Short.BYTES;
    public static final int H_CRC = H_FLAGS + Integer.BYTES;
    public static final int HEADER_SIZE = H_CRC + Integer.BYTES;
    /** The first payload byte, right after the header. */
    public static final int PAYLOAD_START = HEADER_SIZE;
    /**
     * Stored chunks of at least this many bytes start at a multiple of it: page-aligned file offsets let
     * the kernel copy whole pages, which makes sequential writes markedly faster. The zero bytes skipped
     * to get there are padding, covered by the manifest's padding CRC32C.
     */
    public static final int ALIGNMENT = 4096;

    // Trailer: u64 manifest offset | u64 manifest length | u32 manifest crc32c | magic | u32 crc32c(trailer bytes before it)
    public static final int T_MANIFEST_OFFSET = 0;
    public static final int T_MANIFEST_LENGTH = T_MANIFEST_OFFSET + Long.BYTES;
    public static final int T_MANIFEST_CRC = T_MANIFEST_LENGTH + Long.BYTES;
    public static final int T_MAGIC = T_MANIFEST_CRC + Integer.BYTES;
    public static final int T_CRC = T_MAGIC + MAGIC_SIZE;
    public static final int TRAILER_SIZE = T_CRC + Integer.BYTES;

    /** The smallest possible file: header, an empty manifest, trailer. */
    public static final int MIN_FILE_SIZE = HEADER_SIZE + 2 + TRAILER_SIZE;

    // Limits a reader enforces on hostile input (and a writer on itself).
    public static final int MAX_MANIFEST_BYTES = 64 << 20;
    public static final int MAX_ENTRIES = 1 << 16;
    public static final int MAX_CHUNKS = 1 << 20;
    public static final int MAX_DIMENSIONS = 32;
    public static final int MAX_ATTRIBUTES = 4096;
    public static final int MAX_NAME_CHARS = 1024;
    public static final int MAX_TEXT_CHARS = 1 << 20;
    public static final int MAX_JSON_DEPTH = 16;
    /** Chunk-size bounds, as {@link io.ironloop.format.WriterOptions} defines them. */
    public static final int MIN_CHUNK_SIZE = 4096;
    public static final int MAX_CHUNK_SIZE = 64 << 20;
    /** A compressed chunk must be at most this share of its raw length (in tenths), else it is stored raw. */
    public static final int COMPRESSION_PAYS_TENTHS = 9;

    private Layout() {
    }

    /** A copy of the header magic. */
    public static byte[] headerMagic() {
        return HEADER_MAGIC.clone();
    }

    /** A copy of the trailer magic. */
    public static byte[] trailerMagic() {
        return TRAILER_MAGIC.clone();
    }
}
