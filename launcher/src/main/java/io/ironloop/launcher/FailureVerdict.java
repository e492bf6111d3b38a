package io.ironloop.launcher;

import java.util.Optional;

/**
 * Tells a deterministic failure from one worth a restart, from the error a rank reported: a configuration
 * error is never retried, and neither is an error that repeats — the same rank throwing the same exception with
 * the same message at the same iteration as in the attempt before, which a restart from the same checkpoint would only
 * reproduce. A crash, a kill or a lost rank (no error reported) is left to {@link RestartPolicy}. Used by
 * the supervisor thread.
 */
final class FailureVerdict {
    private RankError previous;

    /**
     * Records a failed attempt.
     *
     * @return why restarting cannot help, naming the rank's own error, if so
     */
    Optional<String> deterministic(AttemptOutcome outcome) {
        if (outcome.error().isEmpty() || outcome.injected()) {
            previous = null;
            return Optional.empty();
        }
        RankError error = outcome.error().get();
        RankError before = previous;
        previous = error;
        if (error.configuration()) {
            return Optional.of(error.describe() + " — a configuration error: restarting cannot help; fix it and rerun");
        }
        if (before != null && before.sameAs(error)) {
            return Optional.of(error.describe() + " — the same error at the same iteration as in the attempt before:"
                    + " a deterministic failure, not retried; fix the cause and rerun");
        }
        return Optional.empty();
    }
}
