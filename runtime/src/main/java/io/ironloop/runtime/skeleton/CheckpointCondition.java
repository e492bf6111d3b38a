package io.ironloop.runtime.skeleton;

import io.ironloop.core.Schedule;
import java.time.Duration;

/**
 * When the skeleton's checkpoint location (right after the swap) takes a checkpoint: every N steps, about every
 * T seconds, or at the Young/Daly interval from the measured checkpoint cost. Evaluated at each checkpoint to
 * choose the step of the next one; time-based conditions are agreed by every rank (the mean of their proposals,
 * added in part order) so all checkpoint at the same step. The application may change it at run time with
 * {@link Skeleton#checkpointCondition} (the paper's collaboration). Immutable.
 */
public final class CheckpointCondition {
    private enum Kind { STEPS, SECONDS, YOUNG_DALY }

    private final Kind kind;
    private final long steps;
    private final Duration time;

    private CheckpointCondition(Kind kind, long steps, Duration time) {
        this.kind = kind;
        this.steps = steps;
        this.time = time;
    }

    /**
     * The condition a block loop's schedule (the {@code SNAPSHOT_EVERY} parameter) describes: every N steps, every T,
     * adaptive (Young/Daly with a day's MTBF), or never (one checkpoint, after the last step).
     */
    public static CheckpointCondition of(Schedule schedule) {
        if (schedule instanceof Schedule.Every e) {
            return everySteps(e.n());
        }
        if (schedule instanceof Schedule.EveryTime t) {
            return everySeconds(t.interval());
        }
        if (schedule instanceof Schedule.Adaptive) {
            return youngDaly(Duration.ofDays(1));
        }
        return everySteps(Long.MAX_VALUE / 4);
    }

    /** A checkpoint every {@code n} steps (and after the last). */
    public static CheckpointCondition everySteps(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("a checkpoint every " + n + " steps: the interval must be at least 1 step");
        }
        return new CheckpointCondition(Kind.STEPS, n, null);
    }

    /** A checkpoint about every {@code interval}, converted to steps from the measured time of a step. */
    public static CheckpointCondition everySeconds(Duration interval) {
        return new CheckpointCondition(Kind.SECONDS, 0, positive(interval, "interval"));
    }

    /** A checkpoint every √(2·C·MTBF), C the measured cost of the last checkpoint (Young/Daly). */
    public static CheckpointCondition youngDaly(Duration mtbf) {
        return new CheckpointCondition(Kind.YOUNG_DALY, 0, positive(mtbf, "mtbf"));
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, not " + d);
        }
        return d;
    }

    /** Whether the steps to the next checkpoint depend on measured times (and must be agreed by the ranks). */
    boolean measured() {
        return kind != Kind.STEPS;
    }

    /**
     * This rank's proposal for the number of steps to the next checkpoint, at least 1.
     *
     * @param stepSeconds the measured time of a step, or 0 if not measured yet
     * @param checkpointSeconds the measured cost of the last checkpoint, or 0 if not measured yet
     */
    long stepsToNext(double stepSeconds, double checkpointSeconds) {
        double seconds = switch (kind) {
            case STEPS -> 0;
            case SECONDS -> time.toNanos() / 1e9;
            case YOUNG_DALY -> Math.sqrt(2 * checkpointSeconds * time.toNanos() / 1e9);
        };
        if (kind == Kind.STEPS) {
            return steps;
        }
        if (stepSeconds <= 0) {
            return 1; // nothing measured yet: one step, then decide
        }
        return Math.max(1, (long) Math.min(Long.MAX_VALUE / 4.0, seconds / stepSeconds));
    }

    @Override
    public String toString() {
        return switch (kind) {
            case STEPS -> "every " + steps + " steps";
            case SECONDS -> "every " + time;
            case YOUNG_DALY -> "Young/Daly with MTBF " + time;
        };
    }
}
