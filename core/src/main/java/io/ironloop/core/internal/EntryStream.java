package io.ironloop.core.internal;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Streams one saved entry to its destination chunk by chunk through
 * {@link CheckpointReader#readEntry(String, int, io.ironloop.format.ChunkSink)}: each chunk is verified
 * and copied while it is still in cache, so a restore makes one pass over the destination instead of
 * decoding the whole entry into a buffer first and copying that, and several threads share the work.
 */
public final class EntryStream {
    /** The largest entry that fits in one buffer or array (the engine never writes larger ones). */
    static final long MAX_BUFFERED = Integer.MAX_VALUE - 8;
    /**
     * Threads per entry read: verifying and copying a page-cache-warm chunk is CPU-bound, so a second core
     * nearly doubles restore throughput; beyond four, memory bandwidth is the limit.
     */
    static final int THREADS = Math.min(4, Runtime.getRuntime().availableProcessors());

    private EntryStream() {
    }

    /** Where the verified chunks of an entry go. */
    @FunctionalInterface
    public interface Destination {
        /**
         * Copies {@code chunk}'s remaining bytes (read-only, valid only during the call) to the destination
         * from byte {@code offset} of the entry on; called from several threads at once for distinct chunks.
         */
        void copy(long offset, ByteBuffer chunk);
    }

    /**
     * Reads entry {@code entry} of {@code file} into {@code destination} with up to {@link #THREADS} threads,
     * checking that the chunks cover the entry exactly, each once and where the manifest puts it: the reader
     * promises this for a validated manifest, and a skipped or doubled chunk would be wrong data. The
     * destination is called concurrently for distinct chunks.
     *
     * @throws CorruptCheckpointException when a chunk fails its check or the chunks do not cover the entry
     * @throws IOException when the store fails
     */
    public static void read(CheckpointReader reader, String file, EntryDescriptor entry, Destination destination) throws IOException {
        List<ChunkDescriptor> chunks = entry.chunks();
        long[] starts = new long[chunks.size()];
        long length = 0;
        for (int i = 0; i < starts.length; i++) {
            starts[i] = length;
            length += chunks.get(i).rawLength();
        }
        long expected = entry.header().byteLength();
        if (length != expected) {
            throw new CorruptCheckpointException(file, 0, "entry '" + entry.name() + "' has chunks of " + length
                    + " bytes in all for its " + expected + " bytes");
        }
        AtomicIntegerArray delivered = new AtomicIntegerArray(starts.length);
        reader.readEntry(entry.name(), THREADS, (offset, chunk) -> {
            int i = Arrays.binarySearch(starts, offset);
            if (i < 0 || chunk.remaining() != chunks.get(i).rawLength() || !delivered.compareAndSet(i, 0, 1)) {
                throw new CorruptCheckpointException(file, 0, "entry '" + entry.name() + "' delivered " + chunk.remaining()
                        + " bytes at entry offset " + offset + ", which is not " + (i < 0 ? "where a chunk starts"
                        : "chunk " + i + " (" + chunks.get(i).rawLength() + " bytes, delivered once)"));
            }
            destination.copy(offset, chunk);
        });
        for (int i = 0; i < starts.length; i++) {
            if (delivered.get(i) == 0) {
                throw new CorruptCheckpointException(file, 0, "entry '" + entry.name() + "' did not deliver chunk " + i
                        + " (bytes " + starts[i] + " on)");
            }
        }
    }

    /**
     * Reads entry {@code entry} of {@code file} into a new little-endian heap buffer.
     *
     * @throws CorruptCheckpointException when a chunk fails its check or the entry is larger than a buffer can hold
     * @throws IOException when the store fails
     */
    public static ByteBuffer readNew(CheckpointReader reader, String file, EntryDescriptor entry) throws IOException {
        long length = entry.header().byteLength();
        checkBufferable(file, entry.name(), length);
        ByteBuffer b = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
        read(reader, file, entry, (offset, chunk) -> b.put((int) offset, chunk, chunk.position(), chunk.remaining()));
        return b;
    }

    /** Refuses an entry too large for one buffer: the engine never writes one, so the file is corrupt or foreign. */
    static void checkBufferable(String file, String entry, long length) {
        if (length > MAX_BUFFERED) {
            throw new CorruptCheckpointException(file, 0, "entry '" + entry + "' claims " + length
                    + " bytes, more than one buffer holds (2 GiB) and more than this engine ever writes in one entry");
        }
    }
}
