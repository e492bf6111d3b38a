package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The one rule for "this data file is the one it claims to be", shared by restore and verification. A data
 * file's manifest records its identity (its own store-relative name, which carries series and line; the job,
 * rank, world size, iteration and settings fingerprint in {@code meta}; the files it references), and so does
 * its commit record (which {@link CommitRecord#decode} has already checked against the name it lies under).
 * Before any byte of a data file is trusted, both must agree with each other and with where the file was
 * found; a file copied from another rank, series, line or job is damage, not data.
 */
public final class LineIdentity {
    private LineIdentity() {
    }

    /**
     * How the data file of {@code line} (whose manifest is {@code m}) differs from its commit record, or an
     * empty list when it is the file the record committed.
     */
    public static List<String> differences(LineInfo line, Manifest m) {
        FileMeta meta = m.meta();
        List<String> d = new ArrayList<>();
        differ(d, "file", m.fileName(), line.dataFile());
        differ(d, "job", meta.jobId(), line.jobId());
        differ(d, "rank", meta.rank(), line.rank());
        differ(d, "world size", meta.worldSize(), line.worldSize());
        differ(d, "iteration", meta.iteration(), line.iteration());
        differ(d, "settings fingerprint", meta.settingsFingerprint(), line.settingsFingerprint());
        differ(d, "referenced files", new TreeSet<>(m.referencedFiles()), new TreeSet<>(line.references()));
        return d;
    }

    /**
     * Throws unless the data file of {@code line} is the one its commit record committed.
     *
     * @throws CorruptCheckpointException naming the data file and its commit record, and each difference
     */
    public static void check(LineInfo line, Manifest m) {
        List<String> d = differences(line, m);
        if (!d.isEmpty()) {
            throw new CorruptCheckpointException(line.dataFile(), 0, mismatch(line, d));
        }
    }

    /** The message for a data file that does not belong to its commit record. */
    public static String mismatch(LineInfo line, List<String> differences) {
        return "data file " + line.dataFile() + " does not belong to its commit record "
                + LineCatalog.commitFile(line.series(), line.sequence()) + " (" + String.join("; ", differences)
                + "): it was replaced by another rank's, line's or job's file, and is not trusted";
    }

    /**
     * Why a data file found under the store-relative name {@code name}, with no commit record to compare with,
     * does not hold what its name says, or null when its manifest records that name.
     */
    public static String pathMismatch(String name, Manifest m) {
        return name.equals(m.fileName()) ? null : "data file " + name + " records the name " + m.fileName()
                + ": it is another series' or line's file copied here, and is not trusted";
    }

    private static void differ(List<String> into, String what, Object inData, Object inRecord) {
        if (!Objects.equals(inData, inRecord)) {
            into.add(what + " " + inData + " in the data file, " + inRecord + " in the commit record");
        }
    }
}
