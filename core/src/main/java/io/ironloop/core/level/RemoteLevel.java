package io.ironloop.core.level;

import io.ironloop.core.Schedule;
import io.ironloop.core.Store;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A level that keeps copies of whole committed checkpoint lines away from this machine: a directory every host
 * sees (shared file system) or an object store. Unlike the block {@link Level}s, which hold a loop's in-memory
 * images, a remote level works on the line files the engine already wrote to the local store, in the same
 * format and under the same names ({@code series/line-NNNNNNNNNNNN.ilc} and {@code .commit}): a
 * {@link LineReplicator} copies them there in the background and {@link LineFallback} brings them back to an
 * empty local store. A line is committed on the level when its commit record is published there, which
 * happens only after its data file (and every earlier file it references) is durable there.
 *
 * <p>Threading: immutable; the store is used by one replicator thread per level and, at start, by the fallback.
 */
public final class RemoteLevel implements AutoCloseable {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    /** The name of the shared-directory level. */
    public static final String SHARED = "shared";

    private final String name;
    private final Store store;
    private final int retainLines;
    private final Schedule every;
    private final long bytesPerSecond;

    /**
     * A level that takes every committed line, as fast as its store goes.
     *
     * @param name a short lowercase name for logs and events ({@code shared}, {@code s3})
     * @param store where the copies go
     * @param retainLines committed lines kept per series and settings on this level (plus what they reference)
     * @throws IllegalArgumentException for a bad name or a retention below 1
     */
    public RemoteLevel(String name, Store store, int retainLines) {
        this(name, store, retainLines, Schedule.every(1), 0);
    }

    /**
     * @param name a short lowercase name for logs and events ({@code shared}, {@code s3})
     * @param store where the copies go
     * @param retainLines committed lines kept per series and settings on this level (plus what they reference)
     * @param every which committed lines the level takes: every N-th of a series ({@link Schedule.Every}), the first
     *     after each interval ({@link Schedule.EveryTime}), or none ({@link Schedule.Never}: the level is only read back)
     * @param bytesPerSecond the most the level's copies may read from the local store per second, 0 for no limit
     * @throws IllegalArgumentException for a bad name, a retention below 1, an adaptive schedule or a negative limit
     */
    public RemoteLevel(String name, Store store, int retainLines, Schedule every, long bytesPerSecond) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a level name is 1 to 32 lowercase letters, digits or '-', starting with a letter: " + name);
        }
        if (retainLines < 1) {
            throw new IllegalArgumentException("a level keeps at least 1 line per series, not " + retainLines);
        }
        if (every instanceof Schedule.Adaptive) {
            throw new IllegalArgumentException("'adaptive' " + NOT_ADAPTIVE);
        }
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("a level's bandwidth limit is >= 0 bytes per second (0: none), not " + bytesPerSecond);
        }
        this.name = name;
        this.store = Objects.requireNonNull(store, "store");
        this.retainLines = retainLines;
        this.every = Objects.requireNonNull(every, "every");
        this.bytesPerSecond = bytesPerSecond;
    }

    /** Why a remote level's schedule cannot be adaptive, for the parameter keys and the constructor. */
    static final String NOT_ADAPTIVE = "is not a remote level's schedule: it takes committed disk lines (adapt DISK_EVERY instead); give N"
            + " (every N-th disk line), a duration (the first disk line after each interval) or never";

    /**
     * A level in a directory every host sees, with the local store's crash-consistent protocol (temp, fsync,
     * atomic rename, fsync of the directory).
     */
    public static RemoteLevel sharedDirectory(Path dir, int retainLines) {
        return new RemoteLevel(SHARED, Store.directory(dir), retainLines);
    }

    /** {@link #sharedDirectory(Path, int)} taking the lines {@code every} selects, at most {@code bytesPerSecond} (0: no limit). */
    public static RemoteLevel sharedDirectory(Path dir, int retainLines, Schedule every, long bytesPerSecond) {
        return new RemoteLevel(SHARED, Store.directory(dir), retainLines, every, bytesPerSecond);
    }

    /** The level's name. */
    public String name() {
        return name;
    }

    /** Where the copies live. */
    public Store store() {
        return store;
    }

    /** Committed lines kept per series and settings fingerprint. */
    public int retainLines() {
        return retainLines;
    }

    /** Which committed lines the level takes. */
    public Schedule every() {
        return every;
    }

    /** The most its copies read per second, 0 for no limit. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return name + " (" + store.location() + ")";
    }
}
