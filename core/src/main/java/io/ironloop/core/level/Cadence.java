package io.ironloop.core.level;

import io.ironloop.core.Schedule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One level's {@link Schedule} at run time: whether a chance to save is taken, and, after a save, at which
 * iteration the next one is due. A count ({@link Schedule.Every}) needs no figures: the {@code n}-th chances
 * are taken (chance 0, n, 2n, …). A time or adaptive schedule is turned into "due at iteration X" by
 * {@link #reschedule} from figures every rank agreed on (the time of one iteration, the level's cost, the MTBF
 * of the failures it covers), so that every rank saves at the same iteration; until the first reschedule none
 * of its chances is taken after the first save. An adaptive level whose cost is not known yet (a disk line
 * still being written) waits for it rather than save again.
 *
 * <p>Not thread-safe: the application's thread decides.
 */
public final class Cadence {
    private final String level;
    private final Schedule schedule;
    private long lastSaved = -1;
    private long nextIteration;

    /** The cadence of {@code level} under {@code schedule}; its first chance is taken. */
    public Cadence(String level, Schedule schedule) {
        this.level = Objects.requireNonNull(level, "level");
        this.schedule = Objects.requireNonNull(schedule, "schedule");
    }

    /**
     * The same level under {@code other}, continuing from this cadence's last save: a count takes its multiples as
     * before; a time or adaptive schedule takes no chance until {@link #reschedule} sets its next one from that save.
     */
    public Cadence with(Schedule other) {
        Cadence c = new Cadence(level, other);
        c.lastSaved = lastSaved;
        c.nextIteration = lastSaved >= 0 && c.needsFigures() ? Long.MAX_VALUE : 0;
        return c;
    }

    /** The level this cadence decides for. */
    public String level() {
        return level;
    }

    public Schedule schedule() {
        return schedule;
    }

    /** Whether {@link #reschedule} needs figures (a time or adaptive schedule): a count or never does not. */
    public boolean needsFigures() {
        return schedule instanceof Schedule.EveryTime || schedule instanceof Schedule.Adaptive;
    }

    /**
     * Whether this chance is taken.
     *
     * @param chance the chance's number, from 0 (for the nearest level the iteration itself)
     * @param iteration the iteration the save would hold
     */
    public boolean due(long chance, long iteration) {
        if (schedule instanceof Schedule.Every e) {
            return chance % e.n() == 0;
        }
        if (schedule instanceof Schedule.Never) {
            return false;
        }
        return iteration >= nextIteration;
    }

    /** A save of {@code iteration} was kept; until {@link #reschedule}, no further chance is taken. */
    public void saved(long iteration) {
        lastSaved = iteration;
        nextIteration = needsFigures() ? Long.MAX_VALUE : nextIteration;
    }

    /** The iteration of the last save kept, or -1. */
    public long lastSaved() {
        return lastSaved;
    }

    /** The iteration the next save is due at (for a time or adaptive schedule; {@link Long#MAX_VALUE}: not yet known). */
    public long nextIteration() {
        return nextIteration;
    }

    /**
     * Sets the next save from agreed figures: the last save's iteration plus
     * {@link Schedule#iterationsUntilNext}; an adaptive level without a known cost that saved once waits.
     *
     * @param perIteration the agreed time of one iteration
     * @param cost the agreed cost of this level's saves, empty while none is known
     * @param mtbf the agreed MTBF of the failures this level covers
     */
    public void reschedule(Duration perIteration, Optional<Duration> cost, Duration mtbf) {
        if (lastSaved < 0) {
            nextIteration = 0;
        } else if (schedule instanceof Schedule.Adaptive && cost.isEmpty()) {
            nextIteration = Long.MAX_VALUE;
        } else {
            long gap = schedule.iterationsUntilNext(perIteration, cost, mtbf);
            nextIteration = gap >= Long.MAX_VALUE - lastSaved ? Long.MAX_VALUE : lastSaved + gap;
        }
    }

    @Override
    public String toString() {
        return level + " " + schedule;
    }
}
