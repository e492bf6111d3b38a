package io.ironloop.core;

import io.ironloop.core.internal.DirectoryStore;
import io.ironloop.core.internal.LineCatalog;
import io.ironloop.core.internal.StoreVerifier;
import io.ironloop.format.Manifest;
import io.ironloop.format.internal.StoreNames;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A read-only view of what a {@link Store} holds, for tools ({@code ironloop ls}, {@code verify},
 * {@code inspect}): its series, each series' committed lines, commit records that do not hold, data files
 * without a commit record, temporaries, and a verification of commit records and every chunk of every
 * data file (following differential references into earlier files).
 *
 * <p>File names are store-relative ({@code series/file}). A series' line {@code N} is the data file
 * {@code line-NNNNNNNNNNNN.ilc} and, once committed, the commit record {@code line-NNNNNNNNNNNN.commit}.
 *
 * <p>Threading: a catalog holds no state besides its store and may be shared. It never writes, locks or
 * removes anything, so it can run beside a live writer (it then sees a snapshot that may be slightly
 * behind). Failure: I/O errors surface as {@link IOException}; damage is reported, never thrown.
 */
public final class StoreCatalog {
    /** Suffix of data files. */
    public static final String DATA_SUFFIX = LineCatalog.DATA_SUFFIX;
    /** Suffix of commit records. */
    public static final String COMMIT_SUFFIX = LineCatalog.COMMIT_SUFFIX;
    /** Suffix of a file being written (never read, hidden by stores). */
    public static final String TEMP_SUFFIX = StoreNames.TEMP_SUFFIX;
    /** A series' write lock in a directory store. */
    public static final String LOCK_FILE = LineCatalog.LOCK_FILE;
    /** A series or file name: 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'. */
    public static final Pattern NAME = StoreNames.Patterns.PART;
    /** A line's name without suffix, {@code line-NNNNNNNNNNNN}; group 1 is the line number. */
    public static final Pattern LINE_NAME = LineCatalog.Patterns.LINE_NAME;
    /**
     * A file of a line: {@code line-NNNNNNNNNNNN} then {@link #DATA_SUFFIX} or {@link #COMMIT_SUFFIX}, then
     * possibly {@link #TEMP_SUFFIX}; group 1 the line number, 2 the suffix, 3 the temporary suffix or null.
     */
    public static final Pattern LINE_FILE = LineCatalog.Patterns.LINE_FILE;
    /** The series of a rank's own state, {@code rank-NNNNN}; group 1 is the rank. */
    public static final Pattern RANK_SERIES = LineCatalog.Patterns.RANK_SERIES;

    private final Store store;

    private StoreCatalog(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A catalog of {@code store}. */
    public static StoreCatalog of(Store store) {
        return new StoreCatalog(store);
    }

    /** {@code rank-NNNNN}: the series a rank's engine writes unless told otherwise. */
    public static String rankSeries(int rank) {
        return LineCatalog.rankSeries(rank);
    }

    /** The rank whose {@link #rankSeries} {@code series} is, or -1 for any other series. */
    public static int rankOf(String series) {
        return LineCatalog.rankOf(series);
    }

    /** {@code SERIES/line-NNNNNNNNNNNN.ilc}: the data file of line {@code sequence} of {@code series}. */
    public static String dataFile(String series, long sequence) {
        return LineCatalog.dataFile(series, sequence);
    }

    /** The store this catalog reads. */
    public Store store() {
        return store;
    }

    /** Names of the series in the store, in name order. */
    public List<String> series() throws IOException {
        return store.listSeries();
    }

    /** The committed lines of {@code series} whose commit records hold, oldest first. */
    public List<LineInfo> lines(String series) throws IOException {
        return LineCatalog.committed(store, series, (name, e) -> { });
    }

    /**
     * Everything in {@code series}: committed lines, invalid commit records with their errors, data files
     * without any commit record, and temporaries (listed only for directory stores; other stores hide them).
     */
    public SeriesListing list(String series) throws IOException {
        List<String> files = store.listFiles(series);
        List<InvalidCommit> invalid = new ArrayList<>();
        List<LineInfo> lines = LineCatalog.committed(store, series, (name, e) -> invalid.add(new InvalidCommit(name, e)));
        Set<String> commits = new HashSet<>();
        for (String f : files) {
            if (f.endsWith(COMMIT_SUFFIX)) {
                commits.add(f.substring(0, f.length() - COMMIT_SUFFIX.length()));
            }
        }
        List<String> orphans = new ArrayList<>();
        for (String f : files) {
            if (f.endsWith(DATA_SUFFIX) && !commits.contains(f.substring(0, f.length() - DATA_SUFFIX.length()))) {
                orphans.add(f);
            }
        }
        return new SeriesListing(series, lines, invalid, orphans, temporaries(series));
    }

    /**
     * Verifies the whole store: every commit record of every series (it decodes, its CRC holds, its data file
     * exists with the recorded size and belongs to it) and every chunk of every data file, committed or not: its
     * CRC32C and its decoding, through the decoder a restore uses. A file that is not a regular file is a problem.
     */
    public VerifyReport verifyStore() throws IOException {
        return new StoreVerifier(store).verifyStore();
    }

    /**
     * Verifies one line: its commit record and its data file, including the chunks it references in earlier
     * files. A line without a commit record is reported as a problem (it was never committed).
     *
     * @param series the series
     * @param sequence the line number within the series
     */
    public VerifyReport verifyLine(String series, long sequence) throws IOException {
        return new StoreVerifier(store).verifyLine(series, sequence);
    }

    /**
     * Verifies one file: a commit record (verifying its line as {@link #verifyLine} does) or a data file (every
     * chunk, following references, and its identity against its valid commit record, or its own name without one).
     *
     * @param name store-relative name ending in {@link #DATA_SUFFIX} or {@link #COMMIT_SUFFIX}
     * @throws IllegalArgumentException if the name is neither a data file nor a commit record
     */
    public VerifyReport verifyFile(String name) throws IOException {
        return new StoreVerifier(store).verifyFile(name);
    }

    /**
     * Why the data file {@code dataFile}, whose validated manifest is {@code manifest}, is not the file its
     * commit record committed (another rank's, series', line's or job's file put in its place) or, when it has
     * no valid commit record, not the file its own name says; empty when it is. Restore and verification apply
     * the same rule ({@link #verifyStore()} reports it as a problem; restore skips the line).
     *
     * @param dataFile store-relative name of a data file
     * @param manifest its manifest, as {@link io.ironloop.format.CheckpointReader#manifest()} returned it
     */
    public Optional<String> identityProblem(String dataFile, Manifest manifest) throws IOException {
        return Optional.ofNullable(StoreVerifier.identityProblem(dataFile, manifest, StoreVerifier.committedLineOf(store, dataFile)));
    }

    private List<String> temporaries(String series) throws IOException {
        if (!(store instanceof DirectoryStore ds)) {
            return List.of();
        }
        Path dir = ds.root().resolve(series);
        List<String> out = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + TEMP_SUFFIX)) {
                for (Path p : s) {
                    out.add(series + "/" + p.getFileName());
                }
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * The contents of one series.
     *
     * @param series the series' name
     * @param lines committed lines whose commit records hold, oldest first
     * @param invalidCommits commit records that do not decode or whose data file is missing or of another size
     * @param orphanDataFiles data files without a commit record (a crash between data and commit, or a copy)
     * @param temporaries files a writer left under a temporary name
     */
    public record SeriesListing(String series, List<LineInfo> lines, List<InvalidCommit> invalidCommits,
                                List<String> orphanDataFiles, List<String> temporaries) {
        public SeriesListing {
            lines = List.copyOf(lines);
            invalidCommits = List.copyOf(invalidCommits);
            orphanDataFiles = List.copyOf(orphanDataFiles);
            temporaries = List.copyOf(temporaries);
        }
    }

    /**
     * A commit record that does not hold.
     *
     * @param commitFile the record's store-relative name
     * @param error why (usually a {@link io.ironloop.format.CorruptCheckpointException} naming file and offset)
     */
    public record InvalidCommit(String commitFile, RuntimeException error) {
    }

    /**
     * One problem verification found.
     *
     * @param file the file being verified (data file or commit record) whose content depends on the bad bytes
     * @param entry the entry the bad chunk belongs to, or null for a problem outside chunks
     * @param chunk the chunk's index within its entry, or -1
     * @param location the file holding the bad bytes: {@code file} itself or an earlier file it references
     * @param offset byte offset of the bad bytes in {@code location}
     * @param storedCrc the CRC32C recorded for the bytes (unsigned), or -1 when the problem is not a checksum
     * @param computedCrc the CRC32C computed over the bytes as read (unsigned), or -1
     * @param message what is wrong, for people (file and offset are in the other components)
     */
    public record Problem(String file, String entry, int chunk, String location, long offset, long storedCrc, long computedCrc,
                          String message) {
        /** Whether this problem is a checksum mismatch (both CRCs known). */
        public boolean checksumMismatch() {
            return storedCrc >= 0 && computedCrc >= 0;
        }
    }

    /**
     * The outcome of a verification.
     *
     * @param files store-relative names of the files examined, in order
     * @param chunks chunks checked (zero-elided chunks count; they have nothing to check)
     * @param problems what does not hold; empty when every checksum holds
     */
    public record VerifyReport(List<String> files, long chunks, List<Problem> problems) {
        public VerifyReport {
            files = List.copyOf(files);
            problems = List.copyOf(problems);
        }

        /** Whether every checksum held. */
        public boolean ok() {
            return problems.isEmpty();
        }
    }
}
