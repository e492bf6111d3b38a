package io.ironloop.runtime.tasks;

import java.util.List;

/**
 * Observes a {@link TaskPool}, for the runtime's event timeline (e.g. the launcher event {@code tasks-stolen})
 * and for tests. Every method has a no-op default; {@link #NONE} ignores everything.
 *
 * <p>Every {@link #roundStarted} is followed by exactly one {@link #roundFinished} or {@link #roundFailed}
 * on the same rank.
 *
 * <p><b>Threading.</b> {@link #tasksGivenAway} runs on one of the pool's service threads, possibly while
 * the application thread is inside the work callback; the other methods run on the thread that called
 * {@link TaskPool#runRound}. Implementations must be fast, thread-safe and must not throw; an exception
 * they throw is logged and otherwise ignored.
 */
public interface TaskPoolListener {
    /** A listener that ignores every event. */
    TaskPoolListener NONE = new TaskPoolListener() {
    };

    /**
     * This rank begins a round.
     *
     * @param round the round number
     * @param assignedTasks how many tasks the static start gives this rank
     * @param skippedTasks how many tasks of the round were already done (before a restart) and are skipped
     */
    default void roundStarted(long round, int assignedTasks, int skippedTasks) {
    }

    /**
     * This rank received tasks from {@code fromRank} ({@link WorkloadScheduler#CTWS} only).
     *
     * @param tasks the tasks, ascending; immutable
     */
    default void tasksStolen(long round, int fromRank, List<Integer> tasks) {
    }

    /**
     * This rank gave tasks it had not started to {@code toRank} ({@link WorkloadScheduler#CTWS} only).
     * Called on a service thread.
     *
     * @param tasks the tasks, ascending; immutable
     */
    default void tasksGivenAway(long round, int toRank, List<Integer> tasks) {
    }

    /** This rank has nothing left to do in the round; {@code report} is what {@link TaskPool#runRound} returns. */
    default void roundFinished(RoundReport report) {
    }

    /**
     * This rank's round ended with {@code cause}, which {@link TaskPool#runRound} throws next (the work
     * callback threw, a member failed, or the ranks disagree on the round).
     */
    default void roundFailed(long round, Throwable cause) {
    }
}
