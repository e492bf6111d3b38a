package io.ironloop.format.internal;

import java.util.regex.Pattern;

/**
 * The one grammar of the names a checkpoint store holds, shared by the format (the {@code file} fields of a
 * manifest: its own name and differential references), the engine's stores and commit records, and the
 * tools. A <em>part</em> (a series or a file name) is 1 to {@value #MAX_PART_CHARS} letters, digits,
 * {@code .}, {@code _} or {@code -}, not starting with {@code .} (so never {@code .}, {@code ..} or a hidden
 * file). A <em>store-relative name</em> is parts joined by {@code /}, at most {@link Layout#MAX_NAME_CHARS}
 * characters, never ending in {@value #TEMP_SUFFIX} (the suffix of a file being written); it can never leave
 * the store. The engine's stores use exactly two parts, {@code SERIES/FILE} ({@link #check}), for example
 * {@code rank-00003/line-000000000042.ilc}; {@code /etc/passwd}, {@code ../x}, {@code a//b}, {@code C:x} and
 * {@code a\b} are never names.
 */
public final class StoreNames {
    /** Longest series or file name. */
    public static final int MAX_PART_CHARS = 128;
    /** Suffix of a file being written: never a name, never read. */
    public static final String TEMP_SUFFIX = ".tmp";

    private StoreNames() {
    }

    /**
     * The grammar as a regular expression, for those who match names with one; compiled on first use. The checks here
     * test the characters directly, which decides the same: an engine opening in a new JVM then compiles no pattern.
     */
    public static final class Patterns {
        /** A series or file name. */
        public static final Pattern PART = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0," + (MAX_PART_CHARS - 1) + "}");

        private Patterns() {
        }
    }

    /** Why {@code name} is not a valid store-relative name, or null when it is. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "empty file name";
        }
        if (name.length() > Layout.MAX_NAME_CHARS) {
            return "file name longer than " + Layout.MAX_NAME_CHARS + " characters";
        }
        if (name.endsWith(TEMP_SUFFIX)) {
            return "file name '" + printable(name) + "' ends in " + TEMP_SUFFIX + ", the suffix of a file being written";
        }
        for (String part : name.split("/", -1)) {
            String why = partProblem(part);
            if (why != null) {
                return "file name '" + printable(name) + "' " + why + "; each of its '/'-separated parts must be 1 to "
                        + MAX_PART_CHARS + " letters, digits, '.', '_' or '-' not starting with '.'";
            }
        }
        return null;
    }

    private static String partProblem(String part) {
        if (part.isEmpty()) {
            return "has an empty part (or starts or ends with '/')";
        }
        if (part.charAt(0) == '.') {
            return "has the '" + printable(part) + "' segment, which starts with '.'";
        }
        if (part.length() > MAX_PART_CHARS) {
            return "has a part of " + part.length() + " characters";
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-';
            if (!allowed) {
                return "contains '" + printable(String.valueOf(c)) + "'";
            }
        }
        return null;
    }

    /**
     * Checks that {@code name} is a store's {@code SERIES/FILE} name, and returns it.
     *
     * @throws IllegalArgumentException naming the rule if it is not
     */
    public static String check(String name) {
        String problem = problem(name);
        if (problem == null && name.indexOf('/') != name.lastIndexOf('/')) {
            problem = "'" + printable(name) + "' has more than two parts";
        }
        if (problem != null || name.indexOf('/') < 0) {
            throw new IllegalArgumentException("store names are 'SERIES/FILE', each part 1 to " + MAX_PART_CHARS
                    + " letters, digits, '.', '_' and '-' not starting with '.': " + (problem != null ? problem : "'" + printable(name) + "'"));
        }
        return name;
    }

    /**
     * Checks that {@code series} is a series name (one part), and returns it.
     *
     * @throws IllegalArgumentException naming the rule if it is not
     */
    public static String checkSeries(String series) {
        if (series == null || partProblem(series) != null || series.endsWith(TEMP_SUFFIX)) {
            throw new IllegalArgumentException("series names are 1 to " + MAX_PART_CHARS
                    + " letters, digits, '.', '_' and '-' not starting with '.': '" + (series == null ? null : printable(series)) + "'");
        }
        return series;
    }

    /** The series of a {@link #check checked} {@code SERIES/FILE} name. */
    public static String series(String name) {
        return name.substring(0, name.indexOf('/'));
    }

    /** {@code name} with control characters escaped, for messages. */
    public static String printable(String name) {
        StringBuilder s = new StringBuilder(name.length());
        name.chars().limit(200).forEach(c -> s.append(c < 0x20 || c == 0x7F ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return name.length() > 200 ? s + "..." : s.toString();
    }
}
