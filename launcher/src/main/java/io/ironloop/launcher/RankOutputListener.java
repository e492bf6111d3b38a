package io.ironloop.launcher;

/**
 * Receives every line a rank prints, in addition to the prefixed copy on the launcher's own output.
 * Called on the rank's output-forwarding thread; must be fast, thread-safe and must not throw.
 */
@FunctionalInterface
public interface RankOutputListener {
    /** A listener that ignores every line. */
    RankOutputListener NONE = (attempt, rank, stderr, line) -> { };

    /**
     * One line, without its terminator.
     *
     * @param attempt the attempt (0 first)
     * @param rank the rank
     * @param stderr whether the line came from the rank's standard error
     * @param line the line
     */
    void line(int attempt, int rank, boolean stderr, String line);
}
