package io.ironloop.core.internal;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Streams one saved entry to its destination chunk by chunk through
 * {@link CheckpointReader#readEntry(String, io.ironloop.format.ChunkSink)}: each chunk is verified and
 * copied while it is still in cache, so a restore makes one pass over the destination instead of
 * decoding the whole entry into a buffer first and copying that.
 */
public final class EntryStream {
    /** The largest entry that fits in one buffer or array (the engine never writes larger ones). */
    static final long MAX_BUFFERED = Integer.MAX_VALUE - 8;

    private EntryStream() {
    }

    /** Where the verified chunks of an entry go. */
    @FunctionalInterface
    public interface Destination {
        /**
         * Copies {@code chunk}'s remaining bytes (read-only, valid only during the call) to the destination
         * from byte {@code offset} of the entry on.
         */
        void copy(long offset, ByteBuffer chunk);
    }

    /**
     * Reads entry {@code entry} of {@code file} into {@code destination}, checking that the chunks arrive
     * in order, without gaps or overlaps, and cover the entry exactly: the reader promises this for a
     * validated manifest, and a silently skipped chunk would be wrong data.
     *
     * @throws CorruptCheckpointException when a chunk fails its check or the chunks do not cover the entry
     * @throws IOException when the store fails
     */
    public static void read(CheckpointReader reader, String file, EntryDescriptor entry, Destination destination) throws IOException {
        long length = entry.header().byteLength();
        long[] next = {0};
        reader.readEntry(entry.name(), (offset, chunk) -> {
            int n = chunk.remaining();
            if (offset != next[0] || n > length - offset) {
                throw new CorruptCheckpointException(file, 0, "entry '" + entry.name() + "' delivered " + n + " bytes at entry offset "
                        + offset + " where byte " + next[0] + " of its " + length + " was expected");
            }
            destination.copy(offset, chunk);
            next[0] += n;
        });
        if (next[0] != length) {
            throw new CorruptCheckpointException(file, 0, "entry '" + entry.name() + "' delivered " + next[0] + " of its " + length + " bytes");
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
