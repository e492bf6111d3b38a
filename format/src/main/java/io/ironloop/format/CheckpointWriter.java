package io.ironloop.format;

import io.ironloop.format.internal.WriterEngine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Writes one checkpoint file to a channel: header, chunks, manifest, trailer (layout in
 * {@code docs/format.md}). Does not fsync or rename: committing is the store's job.
 *
 * <p>Each entry's bytes are cut into {@link WriterOptions#chunkSize()} chunks. All-zero chunks are
 * elided; with a previous manifest and {@link WriterOptions#hashChunks()}, chunks whose SHA-256 and
 * length match the previous file's chunk at the same entry name, index and element type are
 * referenced instead of rewritten; other chunks are compressed with the entry's codec (byte-shuffled
 * by element width first) when that saves more than a tenth, else stored raw straight from the
 * caller's buffer, without copying.
 *
 * <p>Not thread-safe; one writer per file. After any exception the writer refuses further calls and
 * the partial file must be discarded.
 */
public final class CheckpointWriter {
    private final WriterEngine engine;

    private CheckpointWriter(WriterEngine engine) {
        this.engine = engine;
    }

    /**
     * Starts a file and writes its header.
     *
     * @param channel where bytes go, written sequentially from its current position (which must be 0)
     * @param fileName this file's store-relative name (segments separated by {@code /}, no {@code ..},
     *     not absolute), recorded in the manifest, used in error messages and in later files' references
     * @param meta who writes the file and when, recorded in the manifest
     * @param options chunk size, zstd level and whether to hash chunks
     * @param previous the manifest of the same rank's previous file for differential writes (chunks whose
     *     hash matches are referenced, not rewritten), or null for a full file; ignored unless
     *     {@code options.hashChunks()}; it must carry its own {@link Manifest#fileName()}
     * @return a writer positioned after the header
     * @throws IllegalArgumentException for a bad file name, a channel not at position 0, metadata beyond
     *     the format's limits, or a previous manifest without (or with this) file name
     * @throws IOException if writing the header fails
     */
    public static CheckpointWriter open(WritableByteChannel channel, String fileName, FileMeta meta, WriterOptions options,
                                        Manifest previous) throws IOException {
        return new CheckpointWriter(WriterEngine.open(channel, fileName, meta, options, previous));
    }

    /**
     * Writes an entry whose raw little-endian bytes are {@code data}'s remaining bytes (left unchanged:
     * position and limit are not moved). Returns when the bytes are written to the channel; until then
     * the caller must not modify them (checksums of later chunks may be computed on a helper thread
     * while earlier ones are written).
     *
     * @param header the entry's name, type, shape, scope and codec
     * @param data the entry's bytes, little-endian
     * @throws IllegalArgumentException if {@code data.remaining()} is not the header's byte length or
     *     the name is already in this file
     * @throws IllegalStateException after {@link #finish()} or a failure, or when the file would exceed
     *     the format's limits on entries, chunks or manifest size
     * @throws IOException if writing fails
     */
    public void writeEntry(EntryHeader header, ByteBuffer data) throws IOException {
        engine.writeEntry(header, data);
    }

    /**
     * Writes an entry of {@code header.byteLength()} bytes that {@code source} supplies chunk by chunk, in
     * order, through two reused chunk-sized buffers: the next chunk may be filled and checksummed on a helper
     * thread while one is written, so {@code source} is called from one thread at a time, in chunk order, but
     * not necessarily from the caller's; none runs once this returns. The file is the same as {@link #writeEntry(EntryHeader, ByteBuffer)}
     * with the same bytes would write; the caller must not change what {@code source} reads until this returns.
     *
     * @param header the entry's name, type, shape, scope and codec
     * @param source fills each chunk
     * @throws IllegalArgumentException if the name is already in this file
     * @throws IllegalStateException as {@link #writeEntry(EntryHeader, ByteBuffer)}
     * @throws IOException if writing fails
     */
    public void writeEntry(EntryHeader header, ChunkSource source) throws IOException {
        engine.writeEntry(header, source);
    }

    /**
     * Writes manifest and trailer; the file is complete when this returns (but not yet durable).
     *
     * @return the manifest written (pass it as {@code previous} to the next differential write) and
     *     what elision, references and compression saved
     * @throws IllegalStateException if already finished or failed
     * @throws IOException if writing fails
     */
    public WriteSummary finish() throws IOException {
        return engine.finish();
    }
}
