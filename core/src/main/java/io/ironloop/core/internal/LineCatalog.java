package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.internal.StoreNames;
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
    /** A series' write lock (in a directory store). */
    public static final String LOCK_FILE = ".lock";

    private LineCatalog() {
    }

    /**
     * The names' grammar as regular expressions, compiled on first use: opening an engine on a series without lines
     * needs none of them (compiling them in a new JVM took 20–40 ms under load).
     */
    public static final class Patterns {
        /** A line's name without suffix; group 1 is its number. */
        public static final Pattern LINE_NAME = Pattern.compile("line-(\\d{12})");
        /** A file of a line, possibly being written; group 1 the number, 2 the suffix, 3 the temporary suffix or null. */
        public static final Pattern LINE_FILE = Pattern.compile(LINE_NAME.pattern() + "(" + Pattern.quote(DATA_SUFFIX) + "|"
                + Pattern.quote(COMMIT_SUFFIX) + ")(" + Pattern.quote(StoreNames.TEMP_SUFFIX) + ")?");
        /** The series of a rank's own state ({@link #rankSeries}); group 1 is the rank. */
        public static final Pattern RANK_SERIES = Pattern.compile("rank-(\\d{5,9})");

        private Patterns() {
        }
    }

    /** {@code line-NNNNNNNNNNNN}: line {@code sequence}'s name without suffix. */
    public static String lineName(long sequence) {
        return zeroPadded("line-", sequence, 12);
    }

    public static String dataFile(String series, long sequence) {
        return series + "/" + lineName(sequence) + DATA_SUFFIX;
    }

    public static String commitFile(String series, long sequence) {
        return series + "/" + lineName(sequence) + COMMIT_SUFFIX;
    }

    /** {@code rank-NNNNN}: the series a rank's engine writes unless told otherwise. */
    public static String rankSeries(int rank) {
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative: " + rank);
        }
        return zeroPadded("rank-", rank, 5);
    }

    /**
     * {@code prefix} followed by {@code value} as {@code String.format(Locale.ROOT, "%0" + width + "d", value)} writes
     * it (at least {@code width} characters, zeros after the sign), without loading {@link java.util.Formatter} and
     * the locale data it reads: these names are made when an engine opens.
     */
    static String zeroPadded(String prefix, long value, int width) {
        String digits = Long.toString(value);
        StringBuilder s = new StringBuilder(prefix.length() + Math.max(width, digits.length())).append(prefix);
        int from = 0;
        if (value < 0) {
            s.append('-');
            from = 1;
        }
        for (int n = digits.length(); n < width; n++) {
            s.append('0');
        }
        return s.append(digits, from, digits.length()).toString();
    }

    /** The rank whose {@link #rankSeries} {@code series} is, or -1. */
    public static int rankOf(String series) {
        Matcher m = Patterns.RANK_SERIES.matcher(series);
        if (!m.matches()) {
            return -1;
        }
        int rank = Integer.parseInt(m.group(1));
        return rankSeries(rank).equals(series) ? rank : -1;
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
     * the name is not a line's file (a temporary is not), or, with {@code suffix} not null, not one with that suffix.
     */
    public static long sequenceOf(String name, String suffix) {
        Matcher m = Patterns.LINE_FILE.matcher(name.substring(name.indexOf('/') + 1));
        if (!m.matches() || m.group(3) != null || suffix != null && !suffix.equals(m.group(2))) {
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
