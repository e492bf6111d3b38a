package io.ironloop.launcher;

import io.ironloop.config.Units;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How long the launcher waits before relaunching a failed job, and whether the failures came too fast to go
 * on: Flink's restart strategies. Whatever the strategy, {@code --restarts K} caps the number of relaunches
 * (unlimited by default with {@link FailureRate}), and a deterministic failure — a configuration error, or the
 * same error at the same iteration as in the attempt before — and a restart storm are never retried. Immutable.
 */
public sealed interface RestartStrategy {

    /** The strategy's name on the command line ({@code --restart-strategy}). */
    String name();

    /**
     * The delay before a relaunch.
     *
     * @param restart 1 for the first relaunch, 2 for the second, …
     */
    Duration delayBefore(int restart);

    /** One line for logs: the name and the settings. */
    String describe();

    /**
     * The same delay before every relaunch (Flink's {@code fixed-delay}).
     *
     * @param delay the delay ({@code --backoff})
     */
    record FixedDelay(Duration delay) implements RestartStrategy {
        /** The name on the command line. */
        public static final String NAME = "fixed-delay";

        public FixedDelay {
            nonNegative(delay, "delay");
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Duration delayBefore(int restart) {
            return delay;
        }

        @Override
        public String describe() {
            return NAME + " (" + Units.formatDuration(delay) + ")";
        }
    }

    /**
     * A delay that doubles from one relaunch to the next up to a cap (Flink's {@code exponential-delay}); the
     * default: 500 ms, 1 s, 2 s, … up to 30 s.
     *
     * @param initial the delay before the first relaunch ({@code --backoff})
     * @param max the cap ({@code --max-backoff}), not below {@code initial}
     */
    record ExponentialDelay(Duration initial, Duration max) implements RestartStrategy {
        /** The name on the command line. */
        public static final String NAME = "exponential-delay";

        public ExponentialDelay {
            nonNegative(initial, "initial delay");
            nonNegative(max, "maximum delay");
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("the maximum backoff " + Units.formatDuration(max) + " is below the backoff "
                        + Units.formatDuration(initial));
            }
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Duration delayBefore(int restart) {
            Duration d = initial;
            for (int i = 1; i < restart && d.compareTo(max) < 0; i++) {
                d = d.multipliedBy(2);
            }
            return d.compareTo(max) > 0 ? max : d;
        }

        @Override
        public String describe() {
            return NAME + " (" + Units.formatDuration(initial) + " doubling up to " + Units.formatDuration(max) + ")";
        }
    }

    /**
     * Relaunches after a fixed delay as long as the job failed at most {@code maxFailures} times within the last
     * {@code interval} (Flink's {@code failure-rate}): a job that fails now and then runs for ever, one that fails
     * in a burst stops.
     *
     * @param maxFailures failures allowed within an interval, at least 1 ({@code --max-failures-per-interval})
     * @param interval the sliding window ({@code --failure-rate-interval})
     * @param delay the delay before each relaunch ({@code --backoff})
     */
    record FailureRate(int maxFailures, Duration interval, Duration delay) implements RestartStrategy {
        /** The name on the command line. */
        public static final String NAME = "failure-rate";

        public FailureRate {
            if (maxFailures < 1) {
                throw new IllegalArgumentException("the failures allowed per interval must be at least 1, got " + maxFailures);
            }
            nonNegative(interval, "failure-rate interval");
            if (interval.isZero()) {
                throw new IllegalArgumentException("the failure-rate interval must be positive");
            }
            nonNegative(delay, "delay");
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Duration delayBefore(int restart) {
            return delay;
        }

        @Override
        public String describe() {
            return NAME + " (at most " + maxFailures + " failure" + (maxFailures == 1 ? "" : "s") + " per "
                    + Units.formatDuration(interval) + ", " + Units.formatDuration(delay) + " apart)";
        }
    }

    /**
     * The strategy named on the command line.
     *
     * @param name {@code fixed-delay}, {@code exponential-delay} or {@code failure-rate} (case-insensitive)
     * @param backoff the delay, or the first delay of {@code exponential-delay}
     * @param maxBackoff the cap of {@code exponential-delay}
     * @param maxFailures failures allowed per interval ({@code failure-rate})
     * @param interval the window ({@code failure-rate})
     * @throws IllegalArgumentException for an unknown name or a bad setting
     */
    static RestartStrategy of(String name, Duration backoff, Duration maxBackoff, int maxFailures, Duration interval) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case FixedDelay.NAME -> new FixedDelay(backoff);
            case ExponentialDelay.NAME -> new ExponentialDelay(backoff, maxBackoff);
            case FailureRate.NAME -> new FailureRate(maxFailures, interval, backoff);
            default -> throw new IllegalArgumentException("unknown restart strategy '" + name + "': use "
                    + FixedDelay.NAME + ", " + ExponentialDelay.NAME + " or " + FailureRate.NAME);
        };
    }

    private static void nonNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException("the " + what + " must not be negative, got " + d);
        }
    }
}
