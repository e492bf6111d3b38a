package io.ironloop.cli;

import io.ironloop.core.Store;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.util.Optional;

/**
 * One open data file of a store: its channel and a validated reader whose differential references resolve
 * through the store. Closing closes the channel. Not thread-safe.
 */
final class CheckpointFile implements AutoCloseable {
    private final String name;
    private final SeekableByteChannel channel;
    private final CheckpointReader reader;

    private CheckpointFile(String name, SeekableByteChannel channel, CheckpointReader reader) {
        this.name = name;
        this.channel = channel;
        this.reader = reader;
    }

    /**
     * Opens {@code name} (store-relative) and checks its header, manifest and trailer.
     *
     * @throws CorruptCheckpointException if the file is damaged
     */
    static CheckpointFile open(Store store, String name) throws IOException {
        SeekableByteChannel ch = store.openRead(name);
        try {
            return new CheckpointFile(name, ch, CheckpointReader.open(ch, name, store::openRead));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The manifest of {@code name}, or empty when the file cannot be opened (missing or damaged). */
    static Optional<Manifest> manifestIfReadable(Store store, String name) {
        try (CheckpointFile f = open(store, name)) {
            return Optional.of(f.manifest());
        } catch (IOException | CorruptCheckpointException e) {
            return Optional.empty();
        }
    }

    String name() {
        return name;
    }

    Manifest manifest() {
        return reader.manifest();
    }

    /**
     * Reads a whole entry as little-endian bytes, checking every chunk's CRC.
     *
     * @throws CorruptCheckpointException if a chunk is damaged
     * @throws io.ironloop.IronloopException if the entry is larger than one Java buffer (2 GiB)
     */
    ByteBuffer read(EntryDescriptor entry) throws IOException {
        long bytes = entry.header().byteLength();
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new io.ironloop.IronloopException("entry '" + entry.name() + "' of " + name + " has " + bytes
                    + " bytes; the tools read entries of at most 2 GiB");
        }
        ByteBuffer b = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        reader.readEntry(entry.name(), b);
        return b.clear();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
