package io.ironloop.core.level;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.internal.LineCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The restart's fall-back across levels, for one series: when the local store holds no committed line, or only
 * lines older than a remote level holds (a fresh machine, a lost disk), the committed lines newer than the
 * local newest are brought back from the nearest level that holds any, each verified (every chunk's CRC32C,
 * through the same verifier as {@code ironloop verify}) before it counts; a level that holds none, cannot be
 * read or gives back a damaged line is skipped with its reason and the next level is asked. The engine then
 * restores from the local store as usual. Which level gave what, and why the nearer ones were skipped, is one
 * log line and the returned {@link Fetched}.
 *
 * <p>Threading: call it before the series' engine opens (the engine numbers its next line after the newest one
 * present), from one thread.
 */
public final class LineFallback {
    private static final Logger LOG = LoggerFactory.getLogger(LineFallback.class);

    private LineFallback() {
    }

    /**
     * What {@link #fetchMissing} did for one series.
     *
     * @param series the series
     * @param level the level the lines came from, or null when none was fetched
     * @param lines the lines fetched, oldest first
     * @param skipped the levels skipped (nearest first), each with its reason
     */
    public record Fetched(String series, String level, List<LineInfo> lines, List<String> skipped) {
        public Fetched {
            lines = List.copyOf(lines);
            skipped = List.copyOf(skipped);
        }
    }

    /** Brings back the lines of {@code series} newer than the local store's newest from the nearest level that has them. */
    public static Fetched fetchMissing(Store local, List<RemoteLevel> levels, String series) throws IOException {
        List<LineInfo> mine = LineCatalog.committed(local, series, (name, e) -> { });
        long newest = mine.isEmpty() ? 0 : mine.get(mine.size() - 1).sequence();
        List<String> skipped = new ArrayList<>();
        for (RemoteLevel level : levels) {
            List<LineInfo> fetched = new ArrayList<>();
            try {
                List<String> damaged = new ArrayList<>();
                List<LineInfo> newer = LineCatalog.committed(level.store(), series, (name, e) -> damaged.add(name + ": " + e.getMessage()))
                        .stream().filter(l -> l.sequence() > newest).toList();
                for (LineInfo line : newer) {
                    String problem = fetchOne(local, level, line);
                    if (problem == null) {
                        fetched.add(line);
                    } else {
                        damaged.add(problem);
                    }
                }
                if (fetched.isEmpty()) {
                    skipped.add(level.name() + ": " + (damaged.isEmpty() ? "no line newer than line " + newest : "damaged " + damaged));
                    continue;
                }
                if (!damaged.isEmpty()) {
                    skipped.add(level.name() + " (partly): damaged " + damaged);
                }
            } catch (IOException | RuntimeException e) {
                skipped.add(level.name() + ": cannot be read (" + e + ")");
                LOG.debug("level '{}' cannot be read", level.name(), e);
                if (fetched.isEmpty()) {
                    continue;
                }
            }
            LOG.info("series {}: local store {} holds {}; brought back line(s) {} (iterations {}) from level '{}' ({}){}", series,
                    local.location(), newest == 0 ? "no committed line" : "lines up to " + newest,
                    fetched.stream().map(LineInfo::sequence).toList(), fetched.stream().map(LineInfo::iteration).toList(), level.name(),
                    level.store().location(), skipped.isEmpty() ? "" : "; skipped " + skipped);
            return new Fetched(series, level.name(), fetched, skipped);
        }
        if (!levels.isEmpty()) {
            LOG.info("series {}: nothing to bring back from the remote levels {}", series, skipped);
        }
        return new Fetched(series, null, List.of(), skipped);
    }

    /** Copies one line and verifies it locally; returns null when it is intact, else why (and removes its commit record). */
    private static String fetchOne(Store local, RemoteLevel level, LineInfo line) throws IOException {
        try {
            LineFiles.copy(line, level.store(), local);
        } catch (IOException | RuntimeException e) {
            forget(local, line);
            return line.dataFile() + ": " + e.getMessage();
        }
        StoreCatalog.VerifyReport report = StoreCatalog.of(local).verifyLine(line.series(), line.sequence());
        if (!report.problems().isEmpty()) {
            forget(local, line);
            return line.dataFile() + ": " + report.problems().get(0).message();
        }
        return null;
    }

    /** Removes what a failed fetch of {@code line} left: its commit record first (it stops being restorable), then its data file. */
    private static void forget(Store local, LineInfo line) throws IOException {
        List<String> present = local.listFiles(line.series());
        for (String f : List.of(LineCatalog.commitFile(line.series(), line.sequence()), line.dataFile())) {
            if (present.contains(f)) {
                local.delete(f);
            }
        }
    }
}
