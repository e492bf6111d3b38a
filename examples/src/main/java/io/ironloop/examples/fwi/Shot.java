package io.ironloop.examples.fwi;

import java.util.Arrays;
import java.util.Objects;

/**
 * One shot, the task of an FWI iteration: forward modelling, L2 misfit, and the adjoint-state
 * gradient with respect to the velocity model.
 *
 * <p>The gradient is the exact gradient of the discrete misfit (discretise, then differentiate): the
 * residuals are propagated backwards with the transposed scheme of {@link Propagator} and correlated
 * at zero lag with the forward field's second time derivative. The forward field is kept in memory
 * up to {@link FwiConfig#wavefieldBudgetBytes()}; beyond that only every k-th pair of time levels is
 * stored and each segment is recomputed just before the backward pass needs it. Both ways give the
 * same bits.
 *
 * <p>A shot is a pure function of (problem, model, shot index): it runs on the calling thread, uses
 * no randomness and no shared mutable state, so any process computes any shot with identical
 * results.
 */
public final class Shot {

    private Shot() {
    }

    /**
     * Computes the misfit and gradient of {@code shot} for {@code model}.
     *
     * @param model velocities in m/s, physical grid order, within the configured bounds
     * @throws IndexOutOfBoundsException if {@code shot} is not a shot of {@code problem}
     * @throws IllegalArgumentException if {@code model} has the wrong length
     */
    public static ShotResult compute(FwiProblem problem, double[] model, int shot) {
        checkArguments(problem, model, shot);
        Workspace w = problem.takeWorkspace();
        try {
            return compute(problem, model, shot, w);
        } finally {
            problem.returnWorkspace(w);
        }
    }

    private static ShotResult compute(FwiProblem problem, double[] model, int shot, Workspace w) {
        Grid grid = problem.grid();
        int cells = grid.cells();
        int steps = problem.steps();
        int[] receivers = problem.receiverCells();
        int segment = w.segment;
        int segments = w.segments;
        int lastStart = (segments - 1) * segment;
        Propagator propagator = problem.propagator(model);
        double[] observed = problem.observed(shot);
        double[] residuals = w.residuals;
        double[][] derivatives = w.derivatives;
        double[][] checkpoints = w.checkpoints;

        // Forward: misfit and residuals, the checkpoints, and the last segment's D^n.
        Fields f = w.fields;
        f.restart(null, null);
        double misfit = 0.0;
        for (int n = 0; n < steps; n++) {
            if (n > 0 && n % segment == 0) {
                int at = 2 * (n / segment - 1);
                System.arraycopy(f.now, 0, checkpoints[at], 0, cells);
                System.arraycopy(f.previous, 0, checkpoints[at + 1], 0, cells);
            }
            double[] d = n >= lastStart ? derivatives[n - lastStart] : f.scratch;
            misfit += f.advance(propagator, problem, shot, n, d, observed, residuals);
        }

        // Backward, segment by segment from the last; recompute each earlier segment first.
        double[] later = w.later;
        double[] latest = w.latest;
        double[] result = w.result;
        double[] correlation = w.correlation;
        Arrays.fill(later, 0.0);
        Arrays.fill(latest, 0.0);
        Arrays.fill(correlation, 0.0);
        for (int j = segments - 1; j >= 0; j--) {
            int start = j * segment;
            int end = Math.min(steps, start + segment);
            if (j < segments - 1) {
                f.restart(j == 0 ? null : checkpoints[2 * (j - 1)],
                        j == 0 ? null : checkpoints[2 * (j - 1) + 1]);
                for (int n = start; n < end; n++) {
                    f.advance(propagator, problem, shot, n, derivatives[n - start], null, null);
                }
            }
            for (int n = end - 1; n >= start; n--) {
                propagator.adjointStep(later, latest, result, f.scratch, receivers, residuals,
                        n * receivers.length);
                double[] d = derivatives[n - start];
                for (int i = 0; i < cells; i++) {
                    correlation[i] += d[i] * result[i];
                }
                double[] free = latest;
                latest = later;
                later = result;
                result = free;
            }
        }

        // d misfit / d v = d misfit / d c * 2 dt^2 v, then back from the sponge to the edge cells.
        double[] velocity = f.scratch;
        grid.extend(model, velocity);
        double twoDt2 = 2.0 * problem.dt() * problem.dt();
        for (int i = 0; i < cells; i++) {
            correlation[i] *= twoDt2 * velocity[i];
        }
        double[] gradient = new double[model.length];
        grid.fold(correlation, gradient);
        return new ShotResult(shot, misfit, gradient);
    }

    /**
     * Computes only the misfit of {@code shot} for {@code model}: one forward modelling, bit-identical
     * to the misfit of {@link #compute}.
     *
     * @throws IndexOutOfBoundsException if {@code shot} is not a shot of {@code problem}
     * @throws IllegalArgumentException if {@code model} has the wrong length
     */
    public static double misfit(FwiProblem problem, double[] model, int shot) {
        checkArguments(problem, model, shot);
        Propagator propagator = problem.propagator(model);
        double[] observed = problem.observed(shot);
        Fields f = new Fields(problem.grid().cells());
        double misfit = 0.0;
        for (int n = 0; n < problem.steps(); n++) {
            misfit += f.advance(propagator, problem, shot, n, f.scratch, observed, null);
        }
        return misfit;
    }

    /** Models the seismograms of {@code shot}, sample-major, receiver-fastest. */
    static double[] model(FwiProblem problem, double[] model, int shot) {
        Propagator propagator = problem.propagator(model);
        int[] receivers = problem.receiverCells();
        double[] traces = new double[problem.steps() * receivers.length];
        Fields f = new Fields(problem.grid().cells());
        for (int n = 0; n < problem.steps(); n++) {
            f.advance(propagator, problem, shot, n, f.scratch, null, null);
            for (int r = 0; r < receivers.length; r++) {
                traces[n * receivers.length + r] = f.now[receivers[r]];
            }
        }
        return traces;
    }

    /**
     * Time steps per stored segment: all of them when the budget allows, otherwise the longest
     * segment whose buffers plus checkpoints fit (and never fewer than about sqrt(2 steps)).
     */
    static int segmentLength(FwiProblem problem) {
        int steps = problem.steps();
        long fieldBytes = (long) problem.grid().cells() * Double.BYTES;
        long fields = problem.config().wavefieldBudgetBytes() / fieldBytes;
        if (fields >= steps) {
            return steps;
        }
        int floor = (int) Math.ceil(Math.sqrt(2.0 * steps));
        for (int k = (int) Math.max(fields, floor); k > floor; k--) {
            long checkpointFields = 2L * ((steps + k - 1) / k - 1);
            if (k + checkpointFields <= fields) {
                return k;
            }
        }
        return floor;
    }

    private static void checkArguments(FwiProblem problem, double[] model, int shot) {
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(model, "model");
        Objects.checkIndex(shot, problem.shots());
        if (model.length != problem.modelSize()) {
            throw new IllegalArgumentException("model has " + model.length
                    + " velocities, the grid has " + problem.modelSize() + " cells");
        }
    }

    /** The three rotating time levels of the forward field and a scratch field. */
    private static final class Fields {
        double[] previous;
        double[] now;
        double[] next;
        final double[] scratch;

        Fields(int cells) {
            previous = new double[cells];
            now = new double[cells];
            next = new double[cells];
            scratch = new double[cells];
        }

        void restart(double[] nowLevel, double[] previousLevel) {
            if (nowLevel == null) {
                Arrays.fill(now, 0.0);
                Arrays.fill(previous, 0.0);
            } else {
                System.arraycopy(nowLevel, 0, now, 0, now.length);
                System.arraycopy(previousLevel, 0, previous, 0, previous.length);
            }
        }

        /**
         * Steps from level n to n+1, writing D^n into {@code d}; with {@code observed}, returns the
         * misfit of sample n (and stores its residuals when {@code residuals} is not null).
         */
        double advance(Propagator propagator, FwiProblem problem, int shot, int n, double[] d,
                double[] observed, double[] residuals) {
            propagator.step(now, previous, next, d, problem.sourceCell(shot), problem.wavelet(n));
            double[] free = previous;
            previous = now;
            now = next;
            next = free;
            if (observed == null) {
                return 0.0;
            }
            int[] receivers = problem.receiverCells();
            double misfit = 0.0;
            for (int r = 0; r < receivers.length; r++) {
                int k = n * receivers.length + r;
                double residual = now[receivers[r]] - observed[k];
                if (residuals != null) {
                    residuals[k] = residual;
                }
                misfit += 0.5 * residual * residual;
            }
            return misfit;
        }
    }

    /**
     * The buffers of {@link #compute}, reused from shot to shot (allocating and zeroing tens of
     * megabytes per shot costs more system time than the shot). Every buffer is either cleared or
     * fully overwritten before it is read, so reuse changes no result.
     */
    static final class Workspace {
        final int segment;
        final int segments;
        final Fields fields;
        final double[] residuals;
        final double[][] derivatives;
        final double[][] checkpoints;
        final double[] later;
        final double[] latest;
        final double[] result;
        final double[] correlation;

        Workspace(FwiProblem problem) {
            int cells = problem.grid().cells();
            int steps = problem.steps();
            segment = segmentLength(problem);
            segments = (steps + segment - 1) / segment;
            fields = new Fields(cells);
            residuals = new double[steps * problem.receiverCells().length];
            derivatives = new double[segment][cells];
            checkpoints = new double[2 * (segments - 1)][cells];
            later = new double[cells];
            latest = new double[cells];
            result = new double[cells];
            correlation = new double[cells];
        }
    }
}
