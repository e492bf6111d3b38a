package io.ironloop.format;

import io.ironloop.format.internal.ReaderEngine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.List;

/**
 * Reads and validates one checkpoint file. Opening checks magic, version, header and trailer CRCs and
 * the manifest's CRC and bounds, then every count, length and offset in the manifest; reading checks
 * every chunk's CRC32C before decoding it. Corrupt or malicious input yields a
 * {@link CorruptCheckpointException} naming file and offset, never an OutOfMemoryError or a hang.
 *
 * <p>The caller owns {@code channel} and closes it; files opened through the {@link ChunkResolver}
 * for differential references are opened per {@link #readEntry} or {@link #verify} call and closed
 * before it returns. Not thread-safe; use one reader (and channel) per thread. A parallel
 * {@link #readEntry(String, int, ChunkSink)} starts and joins its own threads.
 */
public final class CheckpointReader {
    private final ReaderEngine engine;

    private CheckpointReader(ReaderEngine engine) {
        this.engine = engine;
    }

    /**
     * Opens a file and validates everything but the chunks' contents.
     *
     * @param channel the file, read positionally (a {@code FileChannel}'s position is not changed)
     * @param fileName the file's name for messages (any form, e.g. a path)
     * @param resolver opens earlier files named by differential references (store-relative names)
     * @return a reader over the validated file
     * @throws UnsupportedVersionException when the file has a major version this reader does not know
     * @throws CorruptCheckpointException when the file is damaged, truncated or malicious
     * @throws IOException when the channel fails
     */
    public static CheckpointReader open(SeekableByteChannel channel, String fileName, ChunkResolver resolver) throws IOException {
        return new CheckpointReader(ReaderEngine.open(channel, fileName, resolver));
    }

    /** The validated manifest; its {@link Manifest#fileName()} is the name the writer recorded. */
    public Manifest manifest() {
        return engine.manifest();
    }

    /**
     * Decodes entry {@code name} into {@code target}, whose remaining bytes must equal the entry's byte
     * length. The target's position and limit are left unchanged; its remaining bytes receive the
     * entry's raw little-endian bytes. On failure the target's contents are unspecified.
     *
     * @param name the entry's name
     * @param target a heap or direct buffer with exactly the entry's byte length remaining
     * @throws IllegalArgumentException for an unknown entry, a target of the wrong size or a read-only target
     * @throws ChecksumMismatchException when a chunk's stored bytes fail their CRC32C
     * @throws CorruptCheckpointException when a chunk cannot be located, opened or decoded
     * @throws IOException when a channel fails
     */
    public void readEntry(String name, ByteBuffer target) throws IOException {
        engine.readEntry(name, target);
    }

    /**
     * Streams entry {@code name} to {@code sink} chunk by chunk, in order, each chunk verified and
     * decoded before the sink sees it; a chunk that fails its check is never delivered (the chunks
     * before it were). Zero chunks are delivered as zeros.
     *
     * @param name the entry's name
     * @param sink receives each chunk's offset within the entry and its bytes
     * @throws IllegalArgumentException for an unknown entry
     * @throws ChecksumMismatchException when a chunk's stored bytes fail their CRC32C
     * @throws CorruptCheckpointException when a chunk cannot be located, opened or decoded
     * @throws IOException when a channel fails or the sink throws it
     */
    public void readEntry(String name, ChunkSink sink) throws IOException {
        engine.readEntry(name, sink);
    }

    /**
     * Streams entry {@code name} to {@code sink} like {@link #readEntry(String, ChunkSink)}, but with up to
     * {@code threads} threads (the caller's and {@code threads - 1} started for this call), each reading a
     * contiguous run of the entry's chunks: on a page-cache-warm file, verifying and copying is CPU-bound
     * and a second core nearly doubles the throughput. Only a {@code FileChannel} can be read by several
     * threads at once; any other channel is read by the caller alone, in order.
     *
     * <p>The sink is called concurrently, for distinct chunks, in no particular order, each chunk at most
     * once; it must be safe for that (copying to disjoint regions of one array is). When a chunk fails,
     * the other threads stop at their next chunk, the first failure is thrown once all have stopped, and
     * which of the other chunks were delivered is unspecified.
     *
     * @param name the entry's name
     * @param threads the most threads to read with, at least 1
     * @param sink receives each chunk's offset within the entry and its bytes, from several threads
     * @throws IllegalArgumentException for an unknown entry or fewer than one thread
     * @throws ChecksumMismatchException when a chunk's stored bytes fail their CRC32C
     * @throws CorruptCheckpointException when a chunk cannot be located, opened or decoded
     * @throws IOException when a channel fails or the sink throws it
     */
    public void readEntry(String name, int threads, ChunkSink sink) throws IOException {
        engine.readEntry(name, threads, sink);
    }

    /**
     * Checks every stored chunk of every entry, following references, exactly as {@link #readEntry} would read
     * it: its CRC32C, then its decoding (decompressed, into a buffer of at most the chunk size, to exactly its
     * raw length), and the alignment padding; lists every problem found (a bad chunk, an unreadable referenced
     * file) rather than stopping at the first. Header, trailer and manifest were checked by {@link #open}.
     * Memory use is bounded by a few chunk-sized buffers, whatever the entries' sizes.
     *
     * @return the problems, in manifest order; empty when every chunk would read back
     * @throws IOException when a channel fails
     */
    public List<CorruptCheckpointException> verify() throws IOException {
        return engine.verify();
    }

    /**
     * Verifies like {@link #verify()}, handing each problem to {@code sink} with the entry and chunk it concerns.
     *
     * @throws IOException when a channel fails
     */
    public void verify(ProblemSink sink) throws IOException {
        engine.verify(sink);
    }

    /** Receives the problems {@link #verify(ProblemSink)} finds, in manifest order, on the calling thread. */
    @FunctionalInterface
    public interface ProblemSink {
        /**
         * @param entry the entry whose chunk is bad, or null for a problem outside chunks (the alignment padding)
         * @param chunk the bad chunk, or null
         * @param problem what is wrong, naming the file holding the bad bytes and their offset
         */
        void problem(EntryDescriptor entry, ChunkDescriptor chunk, CorruptCheckpointException problem);
    }

    /** The file's size in bytes when it was opened. */
    public long fileSize() {
        return engine.fileSize();
    }
}
