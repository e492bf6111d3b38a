package io.ironloop.examples.fwi;

/**
 * Hooks that {@link FwiInversion#run} and {@link FwiInversion#runRound} call at task boundaries:
 * where a runtime publishes local state (completed shots and their results) and saves global state.
 *
 * <p>Methods run on the thread that drives the inversion, between two shots or two rounds, when the
 * ledger and the state are consistent; they must not keep references to the arrays beyond the call
 * unless they copy them. The defaults do nothing.
 */
public interface FwiListener {

    /** A listener that does nothing. */
    FwiListener NONE = new FwiListener() { };

    /**
     * Shot {@code result.shot()} of {@code round} is done and recorded in {@code ledger}.
     *
     * @param round  the round the shot belongs to
     * @param result the shot's misfit and gradient
     * @param ledger the ledger that now holds it
     */
    default void shotCompleted(long round, ShotResult result, ShotLedger ledger) {
    }

    /**
     * Round {@code round} was reduced and the optimiser moved on; {@code state} is what a global
     * checkpoint should save.
     *
     * @param round    the round just completed
     * @param accepted whether it accepted a new model (an iteration) or backtracked
     * @param state    the global state after the update
     */
    default void roundCompleted(long round, boolean accepted, FwiState state) {
    }
}
