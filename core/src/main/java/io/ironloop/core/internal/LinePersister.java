package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.ChunkSource;
import io.ironloop.format.CheckpointWriter;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import io.ironloop.format.WriteSummary;
import io.ironloop.format.WriterOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes one staged line of a series and commits it: data file (temp, fsync, rename, fsync dir), then
 * its commit record the same way. Until the commit record is published the line does not exist.
 */
public final class LinePersister {
    private LinePersister() {
    }

    /**
     * One entry to write: its header and either the staged bytes or, for a line written in place, a source
     * that reads the live object chunk by chunk ({@code bytes} null).
     */
    public record Staged(EntryHeader header, ByteBuffer bytes, ChunkSource source) {
        /** Staged bytes. */
        public Staged(EntryHeader header, ByteBuffer bytes) {
            this(header, bytes, null);
        }

        /** Read in place from {@code source}. */
        public Staged(EntryHeader header, ChunkSource source) {
            this(header, null, source);
        }
    }

    /** The committed line and what writing it cost. */
    public record Result(LineInfo line, WriteSummary summary) {
    }

    /**
     * Writes and commits a line.
     *
     * @param previous the series' previous manifest to reference unchanged chunks from, or null for a full line
     */
    public static Result persist(Store store, String series, long sequence, FileMeta meta, List<Staged> entries,
                                 WriterOptions options, Manifest previous) throws IOException {
        return persist(store, series, sequence, meta, entries, options, previous, false);
    }

    /**
     * Writes and commits a line, its data file past the store's caches when {@code uncached}
     * ({@link Store#createUncached}): for a save this machine will not read back, such as a termination signal's.
     *
     * @param previous the series' previous manifest to reference unchanged chunks from, or null for a full line
     */
    public static Result persist(Store store, String series, long sequence, FileMeta meta, List<Staged> entries,
                                 WriterOptions options, Manifest previous, boolean uncached) throws IOException {
        String dataName = LineCatalog.dataFile(series, sequence);
        WriteSummary summary;
        long bytes;
        try (Store.PendingFile data = uncached ? store.createUncached(dataName) : store.create(dataName)) {
            CheckpointWriter w = CheckpointWriter.open(data.channel(), dataName, meta, options, previous);
            for (Staged s : entries) {
                if (s.source() != null) {
                    w.writeEntry(s.header(), s.source());
                } else {
                    w.writeEntry(s.header(), s.bytes().duplicate());
                }
            }
            summary = w.finish();
            bytes = summary.fileBytes();
            data.publish();
        }
        Set<String> refs = new TreeSet<>();
        for (EntryDescriptor e : summary.manifest().entries()) {
            for (ChunkDescriptor c : e.chunks()) {
                if (c.file() != null) {
                    refs.add(c.file());
                }
            }
        }
        LineInfo line = new LineInfo(series, sequence, meta.iteration(), dataName, bytes, meta.settingsFingerprint(),
                refs.isEmpty(), refs, meta.jobId(), meta.rank(), meta.worldSize(), Instant.now());
        try (Store.PendingFile commit = store.create(LineCatalog.commitFile(series, sequence))) {
            commit.channel().write(ByteBuffer.wrap(CommitRecord.encode(line)));
            commit.publish();
        }
        return new Result(line, summary);
    }
}
