package io.ironloop.cli;

import io.ironloop.core.Store;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkSink;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;
import java.io.IOException;
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
     * Streams an entry's little-endian bytes to {@code sink} chunk by chunk, in order, each chunk's CRC checked and
     * decoded before the sink sees it; memory use is a few chunk-sized buffers, whatever the entry's size.
     *
     * @throws CorruptCheckpointException if a chunk is damaged (the chunks before it were delivered)
     */
    void stream(EntryDescriptor entry, ChunkSink sink) throws IOException {
        reader.readEntry(entry.name(), sink);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
