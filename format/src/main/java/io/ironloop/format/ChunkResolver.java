package io.ironloop.format;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;

/** Opens the earlier file a differential chunk reference names (a store-relative name). */
@FunctionalInterface
public interface ChunkResolver {
    /** A resolver for files without references; any reference is reported as corrupt. */
    ChunkResolver NONE = name -> {
        throw new IOException("no earlier files are reachable from here, but the file references " + name);
    };

    SeekableByteChannel open(String storeRelativeName) throws IOException;
}
