package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog.Problem;
import io.ironloop.core.StoreCatalog.VerifyReport;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Verifies commit records and data files of a store for {@link io.ironloop.core.StoreCatalog}. A data file is
 * opened with {@link CheckpointReader} (which checks magic, version, header, manifest and trailer); then
 * {@link CheckpointReader#verify(CheckpointReader.ProblemSink)} reads every chunk, in this file or in the earlier
 * file a differential reference names, through the decoder a restore uses: its CRC32C and its decoding to exactly
 * its raw length, in chunk-sized buffers. Each problem names entry, chunk, file and offset, and both checksums for a
 * mismatch. The store opens only regular files, so a named pipe or device in place of a file is reported, never
 * waited on. One verifier per verification; not thread-safe.
 */
public final class StoreVerifier {
    private final Store store;
    private final List<String> files = new ArrayList<>();
    private final List<Problem> problems = new ArrayList<>();
    private long chunks;

    public StoreVerifier(Store store) {
        this.store = store;
    }

    /** Every commit record and every data file of every series. */
    public VerifyReport verifyStore() throws IOException {
        for (String series : store.listSeries()) {
            List<String> all = store.listFiles(series);
            Map<String, LineInfo> byData = new HashMap<>();
            for (String f : all) {
                if (f.endsWith(LineCatalog.COMMIT_SUFFIX)) {
                    files.add(f);
                    try {
                        LineInfo line = LineCatalog.checkedCommit(store, f, all);
                        byData.put(line.dataFile(), line);
                    } catch (CorruptCheckpointException e) {
                        fileProblem(f, e);
                    }
                }
            }
            for (String f : all) {
                if (f.endsWith(LineCatalog.DATA_SUFFIX)) {
                    verifyData(f, byData.get(f));
                }
            }
        }
        return report();
    }

    /** One line: its commit record and its data file (following references). */
    public VerifyReport verifyLine(String series, long sequence) throws IOException {
        List<String> all = store.listFiles(series);
        String commit = LineCatalog.commitFile(series, sequence);
        String data = LineCatalog.dataFile(series, sequence);
        if (all.contains(commit)) {
            verifyCommitAndData(commit, all);
        } else if (all.contains(data)) {
            problems.add(new Problem(data, null, -1, data, 0, -1, -1,
                    "line " + sequence + " of series " + series + " has a data file but no commit record: it was never committed"));
            verifyData(data, null);
        } else {
            throw new IllegalArgumentException("series " + series + " in " + store.location() + " has no line " + sequence);
        }
        return report();
    }

    /** One commit record (with its line's data) or one data file. */
    public VerifyReport verifyFile(String name) throws IOException {
        if (name.endsWith(LineCatalog.COMMIT_SUFFIX)) {
            verifyCommitAndData(name, store.listFiles(name.substring(0, name.indexOf('/'))));
        } else if (name.endsWith(LineCatalog.DATA_SUFFIX)) {
            verifyData(name, committedLineOf(store, name));
        } else {
            throw new IllegalArgumentException("not a data file (" + LineCatalog.DATA_SUFFIX + ") or commit record ("
                    + LineCatalog.COMMIT_SUFFIX + "): " + name);
        }
        return report();
    }

    private VerifyReport report() {
        return new VerifyReport(files, chunks, problems);
    }

    private void verifyCommitAndData(String commit, List<String> seriesFiles) throws IOException {
        files.add(commit);
        try {
            LineInfo line = LineCatalog.checkedCommit(store, commit, seriesFiles);
            verifyData(line.dataFile(), line);
        } catch (CorruptCheckpointException e) {
            fileProblem(commit, e);
            String data = commit.substring(0, commit.length() - LineCatalog.COMMIT_SUFFIX.length()) + LineCatalog.DATA_SUFFIX;
            if (seriesFiles.contains(data)) {
                verifyData(data, null);
            }
        }
    }

    private void verifyData(String name, LineInfo expected) throws IOException {
        files.add(name);
        try (SeekableByteChannel ch = store.openRead(name)) {
            CheckpointReader reader = CheckpointReader.open(ch, name, store::openRead);
            Manifest m = reader.manifest();
            String identity = identityProblem(name, m, expected);
            if (identity != null) {
                problems.add(new Problem(name, null, -1, name, 0, -1, -1, identity));
            }
            for (EntryDescriptor e : m.entries()) {
                chunks += e.chunks().size();
            }
            reader.verify((entry, chunk, problem) -> {
                if (chunk == null) {
                    fileProblem(name, problem);
                } else {
                    chunkProblem(name, entry, chunk, problem);
                }
            });
        } catch (CorruptCheckpointException e) {
            fileProblem(name, e);
        } catch (NoSuchFileException e) {
            problems.add(new Problem(name, null, -1, name, 0, -1, -1, "file is missing"));
        } catch (IOException e) {
            problems.add(new Problem(name, null, -1, name, 0, -1, -1, "cannot read: " + e));
        }
    }

    /**
     * The line whose valid commit record commits the data file {@code dataFile}, or null when it has none (or
     * an invalid one, which vouches for nothing).
     */
    public static LineInfo committedLineOf(Store store, String dataFile) throws IOException {
        String series = dataFile.substring(0, dataFile.indexOf('/'));
        String commit = dataFile.substring(0, dataFile.length() - LineCatalog.DATA_SUFFIX.length()) + LineCatalog.COMMIT_SUFFIX;
        List<String> files = store.listFiles(series);
        if (!files.contains(commit)) {
            return null;
        }
        try {
            return LineCatalog.checkedCommit(store, commit, files);
        } catch (CorruptCheckpointException e) {
            return null;
        }
    }

    /**
     * Why the data file {@code name} (manifest {@code m}) is not the file its commit record {@code line} committed
     * or, without a record, not the file its name says; null when it is. The same rule restore applies.
     */
    public static String identityProblem(String name, Manifest m, LineInfo line) {
        if (line == null) {
            return LineIdentity.pathMismatch(name, m);
        }
        List<String> differences = LineIdentity.differences(line, m);
        return differences.isEmpty() ? null : LineIdentity.mismatch(line, differences);
    }

    /** A chunk that does not read back: its checksum, its location (a missing referenced file) or its decoding. */
    private void chunkProblem(String file, EntryDescriptor entry, ChunkDescriptor c, CorruptCheckpointException e) {
        long stored = -1;
        long computed = -1;
        if (e instanceof ChecksumMismatchException x) {
            stored = Integer.toUnsignedLong(x.stored());
            computed = Integer.toUnsignedLong(x.computed());
        }
        problems.add(new Problem(file, entry.name(), c.index(), e.file(), e.offset(), stored, computed, withoutPrefix(e)));
    }

    private void fileProblem(String file, CorruptCheckpointException e) {
        problems.add(new Problem(file, null, -1, e.file(), e.offset(), -1, -1, withoutPrefix(e)));
    }

    /** The message without the "file at offset N: " prefix, which the problem's other components carry. */
    private static String withoutPrefix(CorruptCheckpointException e) {
        String prefix = e.file() + " at offset " + e.offset() + ": ";
        return e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
    }
}
