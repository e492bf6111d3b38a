package io.ironloop.core.internal;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the newest K committed lines of a series made under the current settings, plus every earlier
 * data file those lines reference. Lines made under other settings are never deleted (they are reported
 * once). A line is removed by deleting its commit record first (it stops being restorable), then its data
 * file unless a kept line still references it. Data files with no commit record and no referrer (a crash
 * between publishing data and commit) are removed too; a data file whose commit record exists but does not
 * decode is left for an operator to inspect.
 */
public final class Retention {
    /** The logger, obtained on first use: a run with nothing to log never initialises SLF4J (its provider lookup scans the class path). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    }
    private final Set<String> reportedForeign = new HashSet<>();

    /** Applies the rule to {@code series}; returns the names of the files deleted. */
    public List<String> apply(Store store, String series, String currentFingerprint, int keep) throws IOException {
        List<LineInfo> lines = LineCatalog.committed(store, series, (name, e) -> { });
        List<LineInfo> current = new ArrayList<>();
        Set<String> kept = new HashSet<>();
        for (LineInfo l : lines) {
            if (l.settingsFingerprint().equals(currentFingerprint)) {
                current.add(l);
            } else {
                kept.add(l.dataFile());
                kept.addAll(l.references());
                if (reportedForeign.add(l.settingsFingerprint())) {
                    Log.LOG.warn("series {} keeps lines made under other settings (fingerprint {}); they are never deleted automatically",
                            series, l.settingsFingerprint());
                }
            }
        }
        List<LineInfo> doomed = current.subList(0, Math.max(0, current.size() - keep));
        for (LineInfo l : current.subList(doomed.size(), current.size())) {
            kept.add(l.dataFile());
            kept.addAll(l.references());
        }
        List<String> deleted = new ArrayList<>();
        for (LineInfo l : doomed) {
            String commit = LineCatalog.commitFile(series, l.sequence());
            store.delete(commit);
            deleted.add(commit);
        }
        Set<String> committedData = new HashSet<>();
        for (LineInfo l : lines) {
            if (!doomed.contains(l)) {
                committedData.add(l.dataFile());
            }
        }
        List<String> files = store.listFiles(series);
        for (String name : files) {
            String commitOfData = name.substring(0, name.length() - LineCatalog.DATA_SUFFIX.length()) + LineCatalog.COMMIT_SUFFIX;
            boolean unreadableCommit = files.contains(commitOfData) && !deleted.contains(commitOfData);
            if (name.endsWith(LineCatalog.DATA_SUFFIX) && !kept.contains(name) && !committedData.contains(name) && !unreadableCommit) {
                store.delete(name);
                deleted.add(name);
            }
        }
        return deleted;
    }
}
