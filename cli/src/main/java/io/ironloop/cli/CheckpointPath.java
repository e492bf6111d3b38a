package io.ironloop.cli;

import io.ironloop.IronloopException;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a tool's PATH argument names, and the store it lies in. A store directory holds one directory per
 * series; a series holds lines {@code line-NNNNNNNNNNNN.ilc} (data) and {@code .commit} (commit record). PATH
 * may name a store, a series, a line (the series directory plus {@code line-NNNNNNNNNNNN}, no suffix), or
 * one data file or commit record.
 *
 * @param kind what PATH names
 * @param root the store directory, or null for a path inside a level's store ({@link #inLevel})
 * @param series the series, or null for a store
 * @param sequence the line number for a line, data file or commit record; -1 otherwise
 * @param path PATH as given, for messages
 */
record CheckpointPath(Kind kind, Path root, String series, long sequence, Path path) {
    private static final Pattern LINE = StoreCatalog.LINE_NAME;
    private static final Pattern LINE_FILE = StoreCatalog.LINE_FILE;
    private static final Pattern NAME = StoreCatalog.NAME;
    private static final String WHAT = "give a store directory, a series directory, a line (DIR/rank-00000/line-000000000003)"
            + " or a .ilc data file or .commit record";

    /** The kinds of thing a PATH can name. */
    enum Kind { STORE, SERIES, LINE, DATA, COMMIT }

    /**
     * Resolves {@code path}.
     *
     * @throws CommandLine.ParameterException (a usage error) when PATH does not exist or names nothing a tool reads
     */
    static CheckpointPath resolve(Path path, CommandSpec spec) {
        Path abs = path.toAbsolutePath().normalize();
        Path file = abs.getFileName();
        if (Files.isDirectory(abs)) {
            if (isSeriesDirectory(abs)) {
                return new CheckpointPath(Kind.SERIES, parent(abs, path, spec), checkedName(file.toString(), path, spec), -1, path);
            }
            return new CheckpointPath(Kind.STORE, abs, null, -1, path);
        }
        if (file == null || abs.getParent() == null) {
            throw usage(spec, path + " does not exist: " + WHAT);
        }
        String name = file.toString();
        String series = checkedName(abs.getParent().getFileName() == null ? "" : abs.getParent().getFileName().toString(), path, spec);
        Matcher line = LINE.matcher(name);
        if (!Files.exists(abs)) {
            if (line.matches() && (Files.isRegularFile(abs.resolveSibling(name + StoreCatalog.COMMIT_SUFFIX))
                    || Files.isRegularFile(abs.resolveSibling(name + StoreCatalog.DATA_SUFFIX)))) {
                return new CheckpointPath(Kind.LINE, parent(abs.getParent(), path, spec), series, Long.parseLong(line.group(1)), path);
            }
            throw usage(spec, path + " does not exist: " + WHAT);
        }
        Matcher lineFile = LINE_FILE.matcher(name);
        boolean data = name.endsWith(StoreCatalog.DATA_SUFFIX);
        if (!Files.isRegularFile(abs) || !(data || name.endsWith(StoreCatalog.COMMIT_SUFFIX))) {
            throw usage(spec, path + " is neither a directory nor a checkpoint file: " + WHAT);
        }
        checkedName(name, path, spec);
        long sequence = lineFile.matches() ? Long.parseLong(lineFile.group(1)) : -1;
        return new CheckpointPath(data ? Kind.DATA : Kind.COMMIT, parent(abs.getParent(), path, spec), series, sequence, path);
    }

    /**
     * Resolves a store-relative {@code name} inside a level's store ({@code --level}): null for the store itself,
     * {@code SERIES}, {@code SERIES/line-NNNNNNNNNNNN}, or {@code SERIES/line-NNNNNNNNNNNN.ilc} / {@code .commit}. Such a
     * path has no root directory: open the level's store instead of {@link #openStore()}.
     *
     * @throws CommandLine.ParameterException (a usage error) when {@code name} is none of these
     */
    static CheckpointPath inLevel(Path name, CommandSpec spec) {
        if (name == null) {
            return new CheckpointPath(Kind.STORE, null, null, -1, Path.of("."));
        }
        String[] parts = name.toString().split("/", -1);
        String series = checkedName(parts[0], name, spec);
        if (parts.length == 1) {
            return new CheckpointPath(Kind.SERIES, null, series, -1, name);
        }
        Matcher line = LINE.matcher(parts[1]);
        Matcher file = LINE_FILE.matcher(parts[1]);
        if (parts.length == 2 && line.matches()) {
            return new CheckpointPath(Kind.LINE, null, series, Long.parseLong(line.group(1)), name);
        }
        if (parts.length == 2 && file.matches() && file.group(3) == null) {
            boolean data = StoreCatalog.DATA_SUFFIX.equals(file.group(2));
            return new CheckpointPath(data ? Kind.DATA : Kind.COMMIT, null, series, Long.parseLong(file.group(1)), name);
        }
        throw usage(spec, name + " is not a name inside a level: give SERIES, SERIES/line-NNNNNNNNNNNN or"
                + " SERIES/line-NNNNNNNNNNNN.ilc (or .commit), or nothing for the newest committed line");
    }

    /** Opens the store (read-only use: nothing is written, locked or removed). */
    Store openStore() {
        return Store.directory(root);
    }

    /** The store-relative name of the data file or commit record PATH names. */
    String fileName() {
        return series + "/" + (root == null ? path : path.toAbsolutePath().normalize()).getFileName();
    }

    /**
     * The data file a tool reading one checkpoint uses: the file itself, the data file of a commit record or
     * line, or the newest committed line of a series or of the store (highest iteration; ties go to the first
     * series in name order).
     *
     * @throws IronloopException when a series or store holds no committed line
     */
    String dataFile(StoreCatalog catalog) throws IOException {
        switch (kind) {
            case DATA:
                return fileName();
            case COMMIT:
                String commit = fileName();
                return commit.substring(0, commit.length() - StoreCatalog.COMMIT_SUFFIX.length()) + StoreCatalog.DATA_SUFFIX;
            case LINE:
                return StoreCatalog.dataFile(series, sequence);
            default:
                List<String> candidates = series != null ? List.of(series) : catalog.series();
                Optional<LineInfo> newest = Optional.empty();
                for (String s : candidates) {
                    Optional<LineInfo> last = catalog.lines(s).stream()
                            .max(Comparator.comparingLong(LineInfo::iteration).thenComparingLong(LineInfo::sequence));
                    if (last.isPresent() && (newest.isEmpty() || last.get().iteration() > newest.get().iteration())) {
                        newest = last;
                    }
                }
                return newest.map(LineInfo::dataFile).orElseThrow(() -> new IronloopException(
                        "no committed line in " + path + ": name a data file (.ilc) to read an uncommitted one"));
        }
    }

    /**
     * The stores at or below {@code dir}, in path order: every directory holding a series directory (one with a
     * lock file or a line file). Series directories are not searched further; symbolic links are not followed;
     * directories that cannot be read are skipped.
     */
    static List<Path> storesUnder(Path dir) throws IOException {
        Set<Path> stores = new TreeSet<>();
        Files.walkFileTree(dir.toAbsolutePath().normalize(), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                if (isSeriesDirectory(d) && d.getParent() != null) {
                    stores.add(d.getParent());
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return List.copyOf(stores);
    }

    private static boolean isSeriesDirectory(Path dir) {
        if (Files.exists(dir.resolve(StoreCatalog.LOCK_FILE))) {
            return true;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (LINE_FILE.matcher(p.getFileName().toString()).matches()) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static Path parent(Path abs, Path given, CommandSpec spec) {
        Path parent = abs.getParent();
        if (parent == null) {
            throw usage(spec, given + " is not inside a store directory (STORE/SERIES/line-NNNNNNNNNNNN.ilc)");
        }
        return parent;
    }

    private static String checkedName(String name, Path given, CommandSpec spec) {
        if (!NAME.matcher(name).matches()) {
            throw usage(spec, given + ": '" + name + "' is not a store name (letters, digits, '.', '_' and '-'): " + WHAT);
        }
        return name;
    }

    static CommandLine.ParameterException usage(CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
