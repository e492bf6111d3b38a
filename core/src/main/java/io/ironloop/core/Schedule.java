package io.ironloop.core;

import io.ironloop.config.ParameterKey;
import io.ironloop.config.Units;
import io.ironloop.config.ValueType;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * When one checkpoint level saves: on every N-th chance it gets ({@link Every}), every T of wall time
 * ({@link EveryTime}), at the Young/Daly interval from the level's measured cost and the MTBF of the failures
 * it covers ({@link Adaptive}), or never ({@link Never}). A level's chances are the iterations for the nearest
 * level and the nearer level's snapshots for the levels behind it. Immutable; what a parameter file names.
 *
 * <p>A running level turns its schedule into "the next save is due at iteration X" with
 * {@link #iterationsUntilNext}, from figures every rank agreed on, so that every rank saves at the same
 * iteration; the interval itself is {@link #youngDaly(Duration, Duration)} — the one definition of that
 * formula, which the runtime's policies and the planner ({@code ironloop plan}) share.
 */
public sealed interface Schedule {

    /** Every {@code n}-th chance (iterations for the nearest level, the nearer level's snapshots behind it). */
    record Every(long n) implements Schedule {
        public Every {
            if (n < 1) {
                throw new IllegalArgumentException("a schedule of every N chances needs N >= 1, not " + n + " (use 'never' to switch a level off)");
            }
        }

        @Override
        public String toString() {
            return Long.toString(n);
        }
    }

    /** Every {@code interval} of wall time, rounded to whole iterations. */
    record EveryTime(Duration interval) implements Schedule {
        public EveryTime {
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException("a schedule's time interval must be positive, not " + interval);
            }
        }

        @Override
        public String toString() {
            return Units.formatDuration(interval);
        }
    }

    /** Young/Daly's √(2·C·MTBF) from the level's measured cost C and the MTBF of the failures it covers. */
    record Adaptive() implements Schedule {
        @Override
        public String toString() {
            return "adaptive";
        }
    }

    /** The level never saves on its own. */
    record Never() implements Schedule {
        @Override
        public String toString() {
            return "never";
        }
    }

    /** Every {@code n}-th chance. */
    static Schedule every(long n) {
        return new Every(n);
    }

    /** Every {@code interval} of wall time. */
    static Schedule everyTime(Duration interval) {
        return new EveryTime(Objects.requireNonNull(interval, "interval"));
    }

    /** Young/Daly from measured cost and MTBF. */
    static Schedule adaptive() {
        return new Adaptive();
    }

    /** Never. */
    static Schedule never() {
        return new Never();
    }

    /**
     * Parses a schedule: a whole number N (every N-th chance; {@code 0} is never), a duration with a unit
     * ({@code 30s}, {@code 5m}, {@code 1h}), {@code adaptive} or {@code never}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    static Schedule parse(String text) {
        String t = Objects.requireNonNull(text, "text").trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "adaptive":
                return adaptive();
            case "never":
            case "0":
                return never();
            default:
                break;
        }
        if (t.matches("[0-9]+")) {
            try {
                return every(Long.parseLong(t));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is too large a count", e);
            }
        }
        if (t.matches("[0-9.]+\\s*[a-z]+")) {
            return everyTime(Units.parseDuration(t));
        }
        throw new IllegalArgumentException("'" + text + "' is not a schedule: write a whole number N (every N-th chance), "
                + "a duration with a unit (30s, 5m), 'adaptive' (Young/Daly) or 'never'");
    }

    /** A parameter key whose value is a schedule ({@link #parse}). */
    static ParameterKey<Schedule> key(String name, Schedule defaultValue, String meaning) {
        return ParameterKey.parsed(name, ValueType.SCHEDULE, "N|duration|adaptive|never", defaultValue,
                defaultValue == null ? "off" : defaultValue.toString(), meaning, Schedule::parse);
    }

    /**
     * Young/Daly's first-order optimal interval between two checkpoints, √(2·C·MTBF).
     *
     * @param cost what one checkpoint of the level costs (snapshot to kept)
     * @param mtbf the mean time between the failures the level has to recover
     * @throws IllegalArgumentException if {@code mtbf} is not positive or {@code cost} is negative
     */
    static Duration youngDaly(Duration cost, Duration mtbf) {
        if (cost.isNegative() || mtbf.isZero() || mtbf.isNegative()) {
            throw new IllegalArgumentException("Young/Daly needs a cost >= 0 and an MTBF > 0, not " + cost + " and " + mtbf);
        }
        return Duration.ofNanos(Math.round(youngDalySeconds(cost.toNanos() / 1e9, mtbf.toNanos() / 1e9) * 1e9));
    }

    /** {@link #youngDaly(Duration, Duration)} in seconds. */
    static double youngDalySeconds(double costSeconds, double mtbfSeconds) {
        return Math.sqrt(2 * costSeconds * mtbfSeconds);
    }

    /**
     * Iterations from a save of this level to its next one, at least 1, from figures every rank agreed on:
     * {@link Every} gives N (its chances); {@link EveryTime} its interval over the time of one iteration;
     * {@link Adaptive} the Young/Daly interval over the time of one iteration, or 1 while no cost is known yet
     * (the next chance measures one); {@link Never} {@link Long#MAX_VALUE}.
     *
     * @param perIteration the wall time of one iteration of the loop (positive)
     * @param cost the level's measured cost, empty while none is known
     * @param mtbf the MTBF of the failures the level covers
     */
    default long iterationsUntilNext(Duration perIteration, Optional<Duration> cost, Duration mtbf) {
        double step = Math.max(perIteration.toNanos(), 1) / 1e9;
        if (this instanceof Every e) {
            return e.n();
        }
        if (this instanceof EveryTime t) {
            return iterations(t.interval().toNanos() / 1e9, step);
        }
        if (this instanceof Adaptive) {
            return cost.map(c -> iterations(youngDalySeconds(c.toNanos() / 1e9, mtbf.toNanos() / 1e9), step)).orElse(1L);
        }
        return Long.MAX_VALUE;
    }

    private static long iterations(double seconds, double perIteration) {
        double n = Math.round(seconds / perIteration);
        return n >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, (long) n);
    }
}
