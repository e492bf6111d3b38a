package io.ironloop.launcher.rank;

import io.ironloop.runtime.event.RuntimeEvent;

/**
 * The {@code level} of a {@code saved} event: the one place that names it (from the runtime's
 * {@link RuntimeEvent.Saved}) and the one place that tells what a level means to the readers of the timeline
 * (the supervisor's halting, the dashboard, the metrics, the picture, the demo's narration), so that they never
 * disagree about which saves are routine.
 *
 * <table>
 *   <caption>levels</caption>
 *   <tr><th>level</th><th>what</th><th>routine</th></tr>
 *   <tr><td>{@code global}</td><td>rank 0's line of the global state on disk</td><td>no</td></tr>
 *   <tr><td>{@code global-copy}</td><td>the second copy of that line (rank size/2)</td><td>yes</td></tr>
 *   <tr><td>{@code local}</td><td>a rank's line of its local state on disk</td><td>no</td></tr>
 *   <tr><td>{@code global-L}, {@code local-L}</td><td>their copies on a remote level {@code L} ({@code shared},
 *       {@code s3})</td><td>yes</td></tr>
 *   <tr><td>{@code memory}</td><td>a block loop's in-memory snapshots, with their partner or erasure copies</td>
 *       <td>yes</td></tr>
 *   <tr><td>{@code disk}</td><td>a block loop's line on disk</td><td>no</td></tr>
 * </table>
 * A routine save is one a run makes over and over or that repeats a save already reported; the others are the
 * lines a job restarts from, one report each.
 */
public final class SavedLevel {
    /** Rank 0's line of the global state on disk. */
    public static final String GLOBAL = "global";
    /** The second copy of the global state on disk (rank size/2). */
    public static final String GLOBAL_COPY = "global-copy";
    /** A rank's line of its local state on disk. */
    public static final String LOCAL = "local";
    /** A block loop's in-memory snapshots. */
    public static final String MEMORY = RuntimeEvent.Saved.MEMORY;
    /** A block loop's line on disk. */
    public static final String DISK = RuntimeEvent.Saved.DISK;

    private SavedLevel() {
    }

    /** The level a {@code saved} message carries for {@code e}: global from local state told apart, and the levels. */
    public static String of(RuntimeEvent.Saved e) {
        String level = e.level();
        return switch (e.kind()) {
            case GLOBAL -> RuntimeEvent.Saved.DISK_COPY.equals(level) ? GLOBAL_COPY
                    : RuntimeEvent.Saved.DISK.equals(level) ? GLOBAL : GLOBAL + "-" + level;
            case LOCAL -> RuntimeEvent.Saved.DISK.equals(level) ? LOCAL : LOCAL + "-" + level;
            case BLOCKS -> level;
        };
    }

    /** Whether {@code level} (null: unknown) holds a rank's local state, on disk or a remote level. */
    public static boolean isLocal(Object level) {
        return LOCAL.equals(level) || String.valueOf(level).startsWith(LOCAL + "-");
    }

    /**
     * Whether a save on {@code level} (null: unknown) is routine: a block loop's in-memory snapshots, the second copy
     * of the global state, a copy on a remote level.
     */
    public static boolean isRoutine(Object level) {
        return MEMORY.equals(level) || String.valueOf(level).matches("(" + GLOBAL + "|" + LOCAL + ")-.+");
    }

    /**
     * Whether a save on {@code level} (null: unknown) is a checkpoint of the whole job, first reported: rank 0's line
     * of the global state or a block loop's line on disk.
     */
    public static boolean isJobCheckpoint(Object level) {
        return GLOBAL.equals(level) || DISK.equals(level);
    }
}
