package io.ironloop.format;

import java.util.List;

/** One entry as recorded in a manifest: its header and its chunks in order. */
public record EntryDescriptor(EntryHeader header, List<ChunkDescriptor> chunks) {
    public EntryDescriptor {
        chunks = List.copyOf(chunks);
    }

    public String name() {
        return header.name();
    }
}
