package io.ironloop.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Writes one checkpoint file to a channel: header, chunks, manifest, trailer. Does not fsync or
 * rename: committing is the store's job. Not thread-safe; one writer per file.
 */
public final class CheckpointWriter {
    private CheckpointWriter() {
    }

    /**
     * Starts a file.
     *
     * @param channel where bytes go, written sequentially from its current position (which must be 0)
     * @param fileName this file's store-relative name, used in error messages and in later files' references
     * @param previous the manifest of the same rank's previous file for differential writes (chunks whose
     *     hash matches are referenced, not rewritten), or null for a full file
     */
    public static CheckpointWriter open(WritableByteChannel channel, String fileName, FileMeta meta, WriterOptions options,
                                        Manifest previous) throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }

    /** Writes an entry whose raw little-endian bytes are {@code data}'s remaining bytes (left unchanged). */
    public void writeEntry(EntryHeader header, ByteBuffer data) throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }

    /** Writes manifest and trailer; the file is complete when this returns (but not yet durable). */
    public WriteSummary finish() throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }
}
