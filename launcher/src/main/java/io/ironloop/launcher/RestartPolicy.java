package io.ironloop.launcher;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When to relaunch a failed job: at most {@code restarts} times, after an exponentially growing delay,
 * and not at all once the same failure repeats — {@code stormLimit} consecutive failed attempts that
 * reached the same highest iteration (or none) without an injected fault. Used by the supervisor thread.
 */
final class RestartPolicy {
    private final int restarts;
    private final Duration backoff;
    private final Duration maxBackoff;
    private final int stormLimit;
    private final Deque<OptionalLong> recent = new ArrayDeque<>();

    RestartPolicy(int restarts, Duration backoff, Duration maxBackoff, int stormLimit) {
        this.restarts = restarts;
        this.backoff = backoff;
        this.maxBackoff = maxBackoff;
        this.stormLimit = stormLimit;
    }

    /** Whether the attempt after {@code attempt} (0-based) is allowed. */
    boolean mayRestartAfter(int attempt) {
        return attempt < restarts;
    }

    /** The delay before starting attempt {@code next} (1 or more): backoff × 2^(next−1), capped. */
    Duration delayBefore(int next) {
        Duration d = backoff;
        for (int i = 1; i < next && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }

    /**
     * Records a failed attempt.
     *
     * @return a message when this failure completes a restart storm
     */
    Optional<String> recordFailure(AttemptOutcome outcome) {
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
