package io.ironloop.format;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The self-description of a checkpoint file: format and writer versions, file metadata, entries, and
 * the store-relative name the file was written under.
 *
 * @param formatVersion the major format version
 * @param writerVersion the Ironloop version that wrote the file
 * @param meta who wrote the file and when
 * @param entries the entries in the order they were written
 * @param fileName the store-relative name the writer was given (later files' differential references
 *     to chunks stored in this file name it); null only for manifests built without a file
 */
public record Manifest(int formatVersion, String writerVersion, FileMeta meta, List<EntryDescriptor> entries,
                       String fileName) {
    public Manifest {
        entries = List.copyOf(entries);
    }

    /** A manifest that records no file name (it cannot serve as the previous manifest of a differential write). */
    public Manifest(int formatVersion, String writerVersion, FileMeta meta, List<EntryDescriptor> entries) {
        this(formatVersion, writerVersion, meta, entries, null);
    }

    /** The entry called {@code name}, if the file has one. */
    public Optional<EntryDescriptor> entry(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * The store-relative names of the earlier files this file's differential references point into,
     * sorted; a store must keep them as long as it keeps this file. Empty for a full checkpoint.
     */
    public Set<String> referencedFiles() {
        Set<String> files = new TreeSet<>();
        for (EntryDescriptor e : entries) {
            for (ChunkDescriptor c : e.chunks()) {
                if (c.file() != null) {
                    files.add(c.file());
                }
            }
        }
        return java.util.Collections.unmodifiableSet(files);
    }
}
