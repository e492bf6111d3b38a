package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of a series' files and its committed lines. A line {@code N} of a series is the data file
 * {@code line-NNNNNNNNNNNN.ilc} and, once committed, the commit record {@code line-NNNNNNNNNNNN.commit}.
 */
public final class LineCatalog {
    public static final String DATA_SUFFIX = ".ilc";
    public static final String COMMIT_SUFFIX = ".commit";
    private static final Pattern LINE = Pattern.compile("line-(\\d{12})(\\.ilc|\\.commit)");

    private LineCatalog() {
    }

    public static String dataFile(String series, long sequence) {
        return String.format("%s/line-%012d%s", series, sequence, DATA_SUFFIX);
    }

    public static String commitFile(String series, long sequence) {
        return String.format("%s/line-%012d%s", series, sequence, COMMIT_SUFFIX);
    }

    /** The highest line number any file of the series uses, or 0. */
    public static long highestSequence(Store store, String series) throws IOException {
        long max = 0;
        for (String name : store.listFiles(series)) {
            max = Math.max(max, sequenceOf(name, null));
        }
        return max;
    }

    /**
     * The line number in a store-relative name {@code series/line-NNNNNNNNNNNN.ilc} or {@code .commit}, or -1 when
     * the name is not a line's file (or, with {@code suffix} not null, not one with that suffix).
     */
    public static long sequenceOf(String name, String suffix) {
        Matcher m = LINE.matcher(name.substring(name.indexOf('/') + 1));
        if (!m.matches() || suffix != null && !suffix.equals(m.group(2))) {
            return -1;
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * The committed lines of {@code series}, oldest first. A commit record that does not decode, or whose
     * data file is missing or of the wrong size, is reported to {@code invalid} and left out.
     */
    public static List<LineInfo> committed(Store store, String series, BiConsumer<String, RuntimeException> invalid) throws IOException {
        List<String> files = store.listFiles(series);
        List<LineInfo> lines = new ArrayList<>();
        for (String name : files) {
            if (!name.endsWith(COMMIT_SUFFIX)) {
                continue;
            }
            try {
                lines.add(checkedCommit(store, name, files));
            } catch (CorruptCheckpointException e) {
                invalid.accept(name, e);
            }
        }
        lines.sort(Comparator.comparingLong(LineInfo::sequence));
        return lines;
    }

    /**
     * Decodes the commit record {@code name} and checks that its data file is among {@code seriesFiles} with
     * the size the record states.
     *
     * @throws CorruptCheckpointException naming the record or data file when anything does not hold
     */
    public static LineInfo checkedCommit(Store store, String name, List<String> seriesFiles) throws IOException {
        LineInfo line = CommitRecord.decode(readSmall(store, name), name);
        if (!seriesFiles.contains(line.dataFile())) {
            throw new CorruptCheckpointException(line.dataFile(), 0, "data file of committed line " + line.sequence() + " is missing");
        }
        long size = store.size(line.dataFile());
        if (size != line.dataBytes()) {
            throw new CorruptCheckpointException(line.dataFile(), Math.min(size, line.dataBytes()),
                    "data file has " + size + " bytes but its commit record says " + line.dataBytes() + " (truncated or replaced)");
        }
        return line;
    }

    /** Reads a whole small file (at most {@link CommitRecord#MAX_BYTES} + 1 bytes are read). */
    static byte[] readSmall(Store store, String name) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            long size = ch.size();
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(size, CommitRecord.MAX_BYTES + 1L));
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // keep reading until full or end of file
            }
            return b.flip().remaining() == b.capacity() ? b.array() : java.util.Arrays.copyOf(b.array(), b.remaining());
        }
    }
}
