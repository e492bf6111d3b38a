package io.ironloop.format;

/**
 * Where one chunk of an entry lives and how to check it (see {@code docs/format.md}, "Manifest").
 *
 * @param index chunk number within the entry (0-based)
 * @param rawLength bytes after decoding
 * @param file null when the chunk is stored in this file; otherwise the store-relative name of the
 *     earlier file holding it (a differential reference)
 * @param offset byte offset of the stored bytes in {@code file} (or this file); -1 for a zero chunk
 * @param storedLength stored bytes (0 for a zero chunk)
 * @param codec codec of the stored bytes
 * @param shuffled whether the raw bytes were byte-shuffled by element width before compression
 * @param zero whether the chunk is all zero bytes and elided (nothing stored)
 * @param crc32c CRC32C of the stored bytes (0 for a zero chunk); checked before the bytes are decoded
 * @param hash lowercase hex SHA-256 of the raw bytes, or null when the writer did not hash
 */
public record ChunkDescriptor(int index, long rawLength, String file, long offset, long storedLength, Codec codec,
                              boolean shuffled, boolean zero, int crc32c, String hash) {
}
