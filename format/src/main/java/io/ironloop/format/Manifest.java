package io.ironloop.format;

import java.util.List;
import java.util.Optional;

/** The self-description of a checkpoint file: format and writer versions, file metadata and entries. */
public record Manifest(int formatVersion, String writerVersion, FileMeta meta, List<EntryDescriptor> entries) {
    public Manifest {
        entries = List.copyOf(entries);
    }

    public Optional<EntryDescriptor> entry(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
