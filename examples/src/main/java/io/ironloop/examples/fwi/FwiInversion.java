package io.ironloop.examples.fwi;

import java.util.Arrays;
import java.util.Objects;

import io.ironloop.examples.ResultDigest;

/**
 * Drives a full-waveform inversion round by round: every round, each shot (task) evaluates misfit
 * and gradient at the current trial model; the contributions are summed in shot order; L-BFGS with
 * a backtracking (Armijo) line search either accepts the trial as the next model (an iteration) or
 * shortens the step.
 *
 * <p>A runtime drives it like this, on every process:
 * <pre>{@code
 * FwiInversion inv = new FwiInversion(problem);   // then, on recovery: inv.state().restore(saved)
 * while (!inv.isFinished()) {
 *     long round = inv.round();
 *     for (int shot : myShots) {                   // DS or CTWS; skip what a restored ledger holds
 *         if (ledger.isDone(round, shot)) continue;
 *         ledger.record(round, inv.computeShot(shot));
 *         // task boundary: publish the ledger (local state)
 *     }
 *     // exchange ledgers (allgather, or allreduce-sum of arrays zero outside one's shots)
 *     inv.completeRound(mergedLedger);              // identical on every process
 *     // round boundary: save inv.state().arrays() (global state)
 * }
 * System.out.println(inv.resultLine());
 * }</pre>
 * Every process holds the same global state after {@link #completeRound}, because the reduction
 * adds the shots in task order and everything else is sequential and deterministic. Misfits of
 * accepted models strictly decrease.
 *
 * <p>Not thread-safe: call from one thread, or hand over with a happens-before edge.
 */
public final class FwiInversion {
    /** Sufficient-decrease constant of the Armijo rule. */
    static final double ARMIJO = 1e-4;
    /** Trials along one direction before the search gives up. */
    static final int MAX_BACKTRACKS = 12;

    private final FwiProblem problem;
    private final FwiState state;
    private final double[] roundGradient;
    private final double[] change;
    private final double[] gradientChange;

    /** Starts an inversion of {@code problem} from its initial model; nothing is computed yet. */
    public FwiInversion(FwiProblem problem) {
        this.problem = Objects.requireNonNull(problem, "problem");
        FwiConfig c = problem.config();
        state = new FwiState(c.modelSize(), c.lbfgsMemory(), c.maxIterations());
        roundGradient = new double[c.modelSize()];
        change = new double[c.modelSize()];
        gradientChange = new double[c.modelSize()];
        double[] start = problem.initialModel();
        System.arraycopy(start, 0, state.model, 0, start.length);
        System.arraycopy(start, 0, state.trial, 0, start.length);
        state.counters[FwiState.PHASE] = FwiState.Phase.START.ordinal();
    }

    /** The problem being inverted. */
    public FwiProblem problem() {
        return problem;
    }

    /** The global state; its arrays are live. */
    public FwiState state() {
        return state;
    }

    /** The number of the round now open (rounds completed so far). */
    public long round() {
        return state.round();
    }

    /**
     * The most rounds an inversion can take: the first evaluation, then per iteration at most
     * {@value #MAX_BACKTRACKS} trials (the last of which either is accepted or stalls the search).
     */
    public long maxRounds() {
        return 1 + (long) problem.config().maxIterations() * MAX_BACKTRACKS;
    }

    /** Whether no more rounds are needed. */
    public boolean isFinished() {
        FwiState.Phase phase = state.phase();
        return phase == FwiState.Phase.DONE || phase == FwiState.Phase.STALLED;
    }

    /** A new, empty ledger sized for this problem. */
    public ShotLedger newLedger() {
        return new ShotLedger(problem.shots(), problem.modelSize());
    }

    /**
     * Computes {@code shot} for the open round (at the trial model). Pure: does not change the state.
     *
     * @throws IllegalStateException if the inversion is finished
     */
    public ShotResult computeShot(int shot) {
        requireOpen();
        return Shot.compute(problem, state.trial, shot);
    }

    /**
     * Computes, in the given order, every shot of {@code order} that {@code ledger} does not yet
     * hold for the open round, recording each and calling the listener after each.
     */
    public void computeShots(int[] order, ShotLedger ledger, FwiListener listener) {
        long round = round();
        for (int shot : order) {
            if (!ledger.isDone(round, shot)) {
                ShotResult result = computeShot(shot);
                ledger.record(round, result);
                listener.shotCompleted(round, result, ledger);
            }
        }
    }

    /**
     * Closes the open round with the results in {@code ledger}, which must hold every shot of it:
     * reduces them in shot order and advances the optimiser.
     *
     * @return whether the round accepted a new model (completed an iteration)
     * @throws IllegalStateException if the inversion is finished or a shot is missing
     */
    public boolean completeRound(ShotLedger ledger) {
        requireOpen();
        double misfit = ledger.sumInTaskOrder(round(), roundGradient);
        boolean accepted;
        if (state.phase() == FwiState.Phase.START) {
            System.arraycopy(roundGradient, 0, state.gradient, 0, roundGradient.length);
            state.misfits[0] = misfit;
            accepted = true;
            searchFromCurrentModel();
        } else {
            accepted = tryTrial(misfit);
        }
        state.counters[FwiState.ROUND]++;
        return accepted;
    }

    /** Runs every remaining round sequentially on this thread, shots in task order. */
    public void run(FwiListener listener) {
        int[] order = new int[problem.shots()];
        Arrays.setAll(order, s -> s);
        while (!isFinished()) {
            runRound(order, newLedger(), listener);
        }
    }

    /**
     * Runs the open round on this thread: computes the shots of {@code order} that {@code ledger}
     * lacks, then completes the round. {@code order} must cover every shot that the ledger lacks.
     *
     * @return whether the round accepted a new model
     */
    public boolean runRound(int[] order, ShotLedger ledger, FwiListener listener) {
        long round = round();
        computeShots(order, ledger, listener);
        boolean accepted = completeRound(ledger);
        listener.roundCompleted(round, accepted, state);
        return accepted;
    }

    /**
     * SHA-256 over the accepted model (little-endian IEEE 754 doubles) followed by the number of
     * accepted iterations (a little-endian long).
     */
    public String resultDigest() {
        return new ResultDigest().putDoubles(state.model).putLong(state.iteration()).hex();
    }

    /** {@code result sha256=<hex>} of {@link #resultDigest()}. */
    public String resultLine() {
        return ResultDigest.LINE_PREFIX + resultDigest();
    }

    /** Accepts or rejects the trial that the open round evaluated. */
    private boolean tryTrial(double misfit) {
        double current = state.misfits[state.iteration()];
        double expected = 0.0;
        for (int i = 0; i < change.length; i++) {
            change[i] = state.trial[i] - state.model[i];
            expected += state.gradient[i] * change[i];
        }
        if (misfit < current && misfit <= current + ARMIJO * expected) {
            for (int i = 0; i < change.length; i++) {
                gradientChange[i] = roundGradient[i] - state.gradient[i];
            }
            state.lbfgs.push(change, gradientChange);
            System.arraycopy(roundGradient, 0, state.gradient, 0, change.length);
            System.arraycopy(state.trial, 0, state.model, 0, change.length);
            int iteration = state.iteration() + 1;
            state.counters[FwiState.ITERATION] = iteration;
            state.misfits[iteration] = misfit;
            if (iteration == problem.config().maxIterations()) {
                setPhase(FwiState.Phase.DONE);
            } else {
                searchFromCurrentModel();
            }
            return true;
        }
        long backtracks = ++state.counters[FwiState.BACKTRACKS];
        if (backtracks >= MAX_BACKTRACKS) {
            setPhase(FwiState.Phase.STALLED);
            return false;
        }
        // Minimiser of the quadratic through f(0), f'(0) and f(step), kept within [0.1, 0.5] step.
        double step = state.scalars[FwiState.STEP];
        double slope = state.scalars[FwiState.SLOPE];
        double curvature = misfit - current - step * slope;
        double next = Double.isFinite(curvature) && curvature > 0
                ? -slope * step * step / (2.0 * curvature) : 0.5 * step;
        setTrial(Math.max(0.1 * step, Math.min(0.5 * step, next)));
        return false;
    }

    /** Chooses the search direction and first trial step from the accepted model. */
    private void searchFromCurrentModel() {
        double[] h0 = problem.preconditioner();
        state.lbfgs.direction(state.gradient, h0, state.direction);
        double slope = dot(state.gradient, state.direction);
        if (!(slope < 0)) {
            state.lbfgs.clear();
            state.lbfgs.direction(state.gradient, h0, state.direction);
            slope = dot(state.gradient, state.direction);
        }
        if (!(slope < 0)) {
            setPhase(FwiState.Phase.STALLED);
            return;
        }
        double step = 1.0;
        if (state.lbfgs.size() == 0) {
            double largest = 0.0;
            for (double d : state.direction) {
                largest = Math.max(largest, Math.abs(d));
            }
            step = problem.config().initialStep() / largest;
        }
        state.scalars[FwiState.SLOPE] = slope;
        state.counters[FwiState.BACKTRACKS] = 0;
        setPhase(FwiState.Phase.LINE_SEARCH);
        setTrial(step);
    }

    /** trial = model + step * direction, clipped to the velocity bounds. */
    private void setTrial(double step) {
        state.scalars[FwiState.STEP] = step;
        double low = problem.config().minVelocity();
        double high = problem.config().maxVelocity();
        for (int i = 0; i < state.trial.length; i++) {
            state.trial[i] = Math.min(high, Math.max(low, state.model[i] + step * state.direction[i]));
        }
    }

    private void setPhase(FwiState.Phase phase) {
        state.counters[FwiState.PHASE] = phase.ordinal();
    }

    private void requireOpen() {
        if (isFinished()) {
            throw new IllegalStateException("the inversion is finished (" + state.phase()
                    + " after " + state.iteration() + " iterations, " + round() + " rounds)");
        }
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0.0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
