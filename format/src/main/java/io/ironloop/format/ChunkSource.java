package io.ironloop.format;

import java.nio.ByteBuffer;

/**
 * Supplies an entry's raw little-endian bytes chunk by chunk to
 * {@link CheckpointWriter#writeEntry(EntryHeader, ChunkSource)}: a streaming write that copies each chunk
 * from its owner (a {@code double[]}, say) into a small reused buffer just before it is checksummed and
 * written, instead of copying the whole entry into a buffer first. The mirror of {@link ChunkSink}.
 */
@FunctionalInterface
public interface ChunkSource {
    // Threading: called for one chunk at a time, in order, possibly from a helper thread of the writer.
    /**
     * Fills one chunk.
     *
     * @param offset the chunk's byte offset within the entry (a multiple of the file's chunk size, so a
     *     multiple of every element width)
     * @param into a little-endian buffer to fill from its position (0) to its limit (the chunk's length)
     *     with the entry's bytes {@code [offset, offset + into.remaining())}; the position need not move
     */
    void fill(long offset, ByteBuffer into);
}
