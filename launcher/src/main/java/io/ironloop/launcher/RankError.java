package io.ironloop.launcher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An exception a rank reported over its control connection just before ending (its {@code error} event),
 * with the iteration it had last reported: the cause of a failed attempt, in the rank's own words.
 *
 * @param rank the rank that threw
 * @param exception the exception's class name
 * @param message its message and its causes'
 * @param configuration whether it is a configuration error (restarting cannot help)
 * @param iteration the iteration the rank had last reported, if any
 */
record RankError(int rank, String exception, String message, boolean configuration, OptionalLong iteration) {

    /** The {@code error} event type. */
    static final String EVENT = "error";

    /** Reads an {@code error} event; empty when it is malformed. */
    static Optional<RankError> of(int rank, ObjectNode event, long lastIteration) {
        if (!event.path("exception").isTextual()) {
            return Optional.empty();
        }
        return Optional.of(new RankError(rank, event.path("exception").asText(), event.path("message").asText(""),
                event.path("configuration").asBoolean(false),
                lastIteration >= 0 ? OptionalLong.of(lastIteration) : OptionalLong.empty()));
    }

    /** Whether {@code other} is the same error: the same rank, exception and message at the same iteration. */
    boolean sameAs(RankError other) {
        return rank == other.rank && exception.equals(other.exception) && message.equals(other.message) && iteration.equals(other.iteration);
    }

    /**
     * Whether this error happened at an earlier iteration than {@code other}: in a loop whose ranks move in step,
     * the rank that threw earlier in the loop is the cause, whichever report reaches the launcher first (a rank
     * reports only after its group has closed, and the coordinator closes last). An error with no iteration
     * (thrown before the loop) comes before any with one.
     */
    boolean before(RankError other) {
        return other.iteration.isPresent() && (iteration.isEmpty() || iteration.getAsLong() < other.iteration.getAsLong());
    }

    /** One line: who threw what, where, and its message. */
    String describe() {
        String simple = exception.substring(exception.lastIndexOf('.') + 1);
        return "rank " + rank + " threw " + simple + (iteration.isPresent() ? " at iteration " + iteration.getAsLong() : "")
                + ": " + message;
    }
}
