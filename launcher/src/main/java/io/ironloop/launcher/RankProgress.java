package io.ironloop.launcher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the ranks of one attempt reported about their progress: each rank's last iteration and where it
 * resumed, the highest iteration of any, and the error that caused the attempt's failure. Used by the
 * supervisor thread.
 */
final class RankProgress {
    private final long[] lastIteration;
    private final long[] resumedAt;
    private OptionalLong highest = OptionalLong.empty();
    private RankError error;

    RankProgress(int size) {
        lastIteration = new long[size];
        resumedAt = new long[size];
        Arrays.fill(lastIteration, -1);
        Arrays.fill(resumedAt, -1);
    }

    /** Rank {@code r} starts iteration {@code it}. */
    void iteration(int r, long it) {
        lastIteration[r] = it;
        if (highest.isEmpty() || it > highest.getAsLong()) {
            highest = OptionalLong.of(it);
        }
    }

    /** Rank {@code r} restored its state and resumes at iteration {@code it}. */
    void resumed(int r, long it) {
        resumedAt[r] = it;
    }

    /** The last iteration rank {@code r} reported, if any. */
    OptionalLong lastIteration(int r) {
        return lastIteration[r] >= 0 ? OptionalLong.of(lastIteration[r]) : OptionalLong.empty();
    }

    /** The highest iteration any rank reported. */
    OptionalLong highest() {
        return highest;
    }

    /**
     * Rank {@code r} reported the exception it ends with ({@link RankError#EVENT}). The attempt's cause is the error at
     * the earliest iteration ({@link RankError#before}), whichever rank reports first.
     *
     * @return the error, when it is the attempt's cause from now on
     */
    Optional<RankError> error(int r, ObjectNode event) {
        // where the rank was: its last iteration, or where it resumed when it threw before finishing one
        Optional<RankError> reported = RankError.of(r, event, Math.max(lastIteration[r], resumedAt[r]));
        if (reported.isEmpty() || error != null && !reported.get().before(error)) {
            return Optional.empty();
        }
        error = reported.get();
        return reported;
    }

    /** The attempt's cause, as a rank reported it. */
    Optional<RankError> error() {
        return Optional.ofNullable(error);
    }
}
