package io.ironloop.format;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;

/**
 * Opens the earlier file a differential chunk reference names (a store-relative name, already checked
 * never to leave the store: no absolute path, no {@code ..} segment). A reader opens each referenced
 * file at most once per {@link CheckpointReader#readEntry} or {@link CheckpointReader#verify} call and
 * closes the channel before that call returns.
 */
@FunctionalInterface
public interface ChunkResolver {
    /** A resolver for files without references; any reference is reported as corrupt. */
    ChunkResolver NONE = name -> {
        throw new IOException("no earlier files are reachable from here, but the file references " + name);
    };

    /**
     * Opens a file for reading.
     *
     * @param storeRelativeName the name the reference carries, e.g. {@code rank-00003/line-000000000041.ilc}
     * @return a channel positioned anywhere (readers read positionally); the reader closes it
     * @throws IOException when the file cannot be opened; the reader reports it as a
     *     {@link CorruptCheckpointException} of the referencing file, with this as the cause
     */
    SeekableByteChannel open(String storeRelativeName) throws IOException;
}
