package io.ironloop.launcher;

import io.ironloop.config.Units;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When to relaunch a failed job: at most {@code restarts} times, after the {@link RestartStrategy}'s delay,
 * while the strategy's failure rate allows it, and not at all once the same failure repeats —
 * {@code stormLimit} consecutive failed attempts that reached the same highest iteration (or none) without an
 * injected fault. Used by the supervisor thread.
 */
final class RestartPolicy {
    private final int restarts;
    private final RestartStrategy strategy;
    private final int stormLimit;
    private final Deque<OptionalLong> recent = new ArrayDeque<>();
    private final Deque<Instant> failures = new ArrayDeque<>();

    RestartPolicy(int restarts, RestartStrategy strategy, int stormLimit) {
        this.restarts = restarts;
        this.strategy = strategy;
        this.stormLimit = stormLimit;
    }

    /**
     * Why the attempt after {@code attempt} (0-based), which failed at {@code failedAt} ({@link #recordFailure}),
     * is not allowed, if it is not: no restarts left, or more failures within the failure-rate interval than
     * the strategy allows.
     */
    Optional<String> refusal(int attempt, Instant failedAt) {
        if (attempt >= restarts) {
            return Optional.of(restarts > 0 ? "no restarts left (--restarts " + restarts + ")" : "");
        }
        if (strategy instanceof RestartStrategy.FailureRate rate) {
            Instant from = failedAt.minus(rate.interval());
            while (!failures.isEmpty() && !failures.peekFirst().isAfter(from)) {
                failures.removeFirst(); // out of the window for good: failures are recorded in time order
            }
            long within = failures.size();
            if (within > rate.maxFailures()) {
                return Optional.of(within + " failures within " + Units.formatDuration(rate.interval())
                        + ", more than the " + rate.maxFailures() + " that --restart-strategy " + rate.describe() + " allows");
            }
        }
        return Optional.empty();
    }

    /** The delay before starting attempt {@code next} (1 or more). */
    Duration delayBefore(int next) {
        return strategy.delayBefore(next);
    }

    /**
     * Records a failed attempt.
     *
     * @param failedAt when it failed (for the failure rate)
     * @return a message when this failure completes a restart storm
     */
    Optional<String> recordFailure(AttemptOutcome outcome, Instant failedAt) {
        failures.addLast(failedAt);
        if (outcome.injected()) {
            recent.clear();
            return Optional.empty();
        }
        recent.addLast(outcome.iteration());
        while (recent.size() > stormLimit) {
            recent.removeFirst();
        }
        if (recent.size() < stormLimit || recent.stream().distinct().count() != 1) {
            return Optional.empty();
        }
        OptionalLong it = outcome.error().map(RankError::iteration).orElse(outcome.iteration());
        return Optional.of("restart storm: the last " + stormLimit + " attempts all failed "
                + (it.isPresent() ? "at iteration " + it.getAsLong() : "before reporting any iteration")
                + " (last: " + outcome.cause() + "); restarting again would not help: fix the cause"
                + (outcome.error().isPresent() ? "" : " (see the ranks' output above)") + " and rerun");
    }
}
