package io.ironloop.format;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Receives an entry's decoded bytes chunk by chunk, in order, from
 * {@link CheckpointReader#readEntry(String, ChunkSink)} (or concurrently and in any order from
 * {@link CheckpointReader#readEntry(String, int, ChunkSink)}): a streaming read that lets a caller copy each
 * verified chunk into its final destination (a {@code double[]}, say) while the bytes are still in
 * cache, instead of decoding the whole entry into a buffer first.
 */
@FunctionalInterface
public interface ChunkSink {
    /**
     * Takes one chunk. Its CRC32C has been verified and it has been decompressed and unshuffled.
     *
     * @param offset the chunk's byte offset within the entry (a multiple of the file's chunk size, so a
     *     multiple of every element width)
     * @param bytes the chunk's raw little-endian bytes (remaining); read-only, and valid only during
     *     this call, since the reader reuses the buffer
     * @throws IOException to abort the read; it propagates to the caller of {@code readEntry}
     */
    void accept(long offset, ByteBuffer bytes) throws IOException;
}
