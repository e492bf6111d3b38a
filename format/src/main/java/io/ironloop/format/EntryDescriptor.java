package io.ironloop.format;

import java.util.List;

/**
 * One entry as recorded in a manifest: its header and its chunks in order.
 *
 * @param header name, element type, shape, scope and requested codec
 * @param chunks one descriptor per chunk, index 0 first
 */
public record EntryDescriptor(EntryHeader header, List<ChunkDescriptor> chunks) {
    public EntryDescriptor {
        chunks = List.copyOf(chunks);
    }

    /** The entry's name. */
    public String name() {
        return header.name();
    }
}
