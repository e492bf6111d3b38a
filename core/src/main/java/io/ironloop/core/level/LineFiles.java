package io.ironloop.core.level;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.internal.LineCatalog;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The one rule for copying a committed line between two stores, used both ways (to a remote level and back):
 * the earlier files the line references, then its data file, then — only once those are published at the
 * target — its commit record. A file the target already holds with the right size is kept (a copy resumed
 * after a crash); an uncommitted leftover of another size is replaced. So a crash at any moment leaves the
 * target with either the complete line or no commit record for it, never a commit record without its data.
 */
final class LineFiles {
    private LineFiles() {
    }

    /** Copies {@code line} from {@code from} to {@code to}; returns the bytes copied (files already there not counted). */
    static long copy(LineInfo line, Store from, Store to) throws IOException {
        List<String> present = to.listFiles(line.series());
        String commit = LineCatalog.commitFile(line.series(), line.sequence());
        if (present.contains(commit)) {
            return 0;
        }
        long bytes = 0;
        List<String> data = new ArrayList<>(new TreeSet<>(line.references()));
        data.add(line.dataFile());
        for (String f : data) {
            if (present.contains(f)) {
                long want = from.size(f);
                if (to.size(f) == want) {
                    continue;
                }
                to.delete(f); // an uncommitted leftover of another write: never read, safe to replace
            }
            bytes += copyOne(from, to, f);
        }
        bytes += copyOne(from, to, commit);
        return bytes;
    }

    private static long copyOne(Store from, Store to, String name) throws IOException {
        try {
            to.copyFrom(from, name);
        } catch (FileAlreadyExistsException e) {
            // published by an earlier, interrupted copy between our listing and now: the size check below decides
        }
        long size = to.size(name);
        if (size != from.size(name)) {
            throw new IOException("the copy of " + name + " in " + to.location() + " has " + size + " bytes, the original in "
                    + from.location() + " " + from.size(name) + ": remove the copy and retry");
        }
        return size;
    }
}
