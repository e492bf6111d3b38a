package io.ironloop.runtime.skeleton;

import io.ironloop.core.Schedule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When the skeleton's checkpoint location (right after the swap) takes a checkpoint: every N steps, about every
 * T, or at the Young/Daly interval from the measured checkpoint cost. A condition is a {@link Schedule} — the block
 * loop's one definition of when to checkpoint, which the skeleton's checkpoints are ({@link #schedule()}) — in the
 * skeleton's words, with an MTBF for Young/Daly if the application gives one. The loop decides at each step from
 * figures every rank agreed on (the slowest rank's time per step, the measured cost of a checkpoint), so every rank
 * checkpoints at the same step. The application may change it at run time with {@link Skeleton#checkpointCondition}
 * (the paper's collaboration). Immutable.
 */
public final class CheckpointCondition {
    private final Schedule schedule;
    private final Duration mtbf;

    private CheckpointCondition(Schedule schedule, Duration mtbf) {
        this.schedule = schedule;
        this.mtbf = mtbf;
    }

    /**
     * The condition a block loop's schedule (the {@code SNAPSHOT_EVERY} parameter) describes: every N steps, every T,
     * adaptive (Young/Daly with the loop's {@code MTBF}), or never (one checkpoint, after the last step).
     */
    public static CheckpointCondition of(Schedule schedule) {
        if (Objects.requireNonNull(schedule, "schedule") instanceof Schedule.Never) {
            return everySteps(Long.MAX_VALUE / 4); // the loop checkpoints at its start and after its last step anyway
        }
        return new CheckpointCondition(schedule, null);
    }

    /** A checkpoint every {@code n} steps (and after the last). */
    public static CheckpointCondition everySteps(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("a checkpoint every " + n + " steps: the interval must be at least 1 step");
        }
        return new CheckpointCondition(Schedule.every(n), null);
    }

    /** A checkpoint about every {@code interval}, converted to steps from the measured time of a step. */
    public static CheckpointCondition everySeconds(Duration interval) {
        return new CheckpointCondition(Schedule.everyTime(positive(interval, "interval")), null);
    }

    /** A checkpoint every √(2·C·MTBF), C the measured cost of a checkpoint (Young/Daly, {@link Schedule#youngDaly}). */
    public static CheckpointCondition youngDaly(Duration mtbf) {
        return new CheckpointCondition(Schedule.adaptive(), positive(mtbf, "mtbf"));
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, not " + d);
        }
        return d;
    }

    /** The schedule the block loop under the skeleton follows. */
    public Schedule schedule() {
        return schedule;
    }

    /** The MTBF Young/Daly assumes, if this condition gives one (else the loop's {@code MTBF}). */
    public Optional<Duration> mtbf() {
        return Optional.ofNullable(mtbf);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointCondition c && schedule.equals(c.schedule) && Objects.equals(mtbf, c.mtbf);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schedule, mtbf);
    }

    @Override
    public String toString() {
        if (schedule instanceof Schedule.Every e) {
            return "every " + e.n() + " steps";
        }
        if (schedule instanceof Schedule.EveryTime t) {
            return "every " + t;
        }
        return "Young/Daly with MTBF " + (mtbf == null ? "MTBF" : mtbf);
    }
}
