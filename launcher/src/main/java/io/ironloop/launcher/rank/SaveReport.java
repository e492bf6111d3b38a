package io.ironloop.launcher.rank;

import java.time.Duration;
import java.util.Objects;

/**
 * What a rank reports to the launcher about committed checkpoints: the {@code saved} event (see
 * {@link LauncherLink#saved(SaveReport)}), with what the saves cost. One report usually stands for one save; a
 * block loop's in-memory snapshots, taken every few iterations, are reported together, at most about once a
 * second ({@link LauncherEvents}). Immutable.
 *
 * @param iteration the iteration of the (newest) save
 * @param level the storage level or kind, e.g. {@code global}, {@code local}, {@code memory}, {@code disk}
 * @param saves how many saves the report stands for, at least 1
 * @param blocking what the saves cost the application's thread, summed ({@link io.ironloop.runtime.event.RuntimeEvent.Saved#blocking})
 * @param bytes what the level holds of the saves, summed ({@link io.ironloop.runtime.event.RuntimeEvent.Saved#bytes})
 */
public record SaveReport(long iteration, String level, long saves, Duration blocking, long bytes) {
    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException if the level is blank, or the count, the time or the bytes out of range
     */
    public SaveReport {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(blocking, "blocking");
        if (level.isBlank() || saves < 1 || blocking.isNegative() || bytes < 0) {
            throw new IllegalArgumentException("a save report needs a level, at least one save and no negative time or bytes: "
                    + level + ", " + saves + ", " + blocking + ", " + bytes);
        }
    }

    /** One save. */
    public static SaveReport of(long iteration, String level, Duration blocking, long bytes) {
        return new SaveReport(iteration, level, 1, blocking, bytes);
    }

    /** This report and a later one of the same level as one report. */
    SaveReport plus(SaveReport later) {
        return new SaveReport(Math.max(iteration, later.iteration), level, saves + later.saves, blocking.plus(later.blocking),
                bytes + later.bytes);
    }
}
