package io.ironloop.examples.fwi;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The global state of an inversion: everything the next round needs, as a fixed set of plain arrays
 * (DeLIA's global data: model, gradient, misfit, L-BFGS memory, iteration).
 *
 * <p>The arrays are allocated once and never replaced, so a runtime can register them at start-up,
 * save them after each round, and restore a checkpoint by overwriting them in place (see
 * {@link #arrays()}, {@link #copy()} and {@link #restore}); the run then continues bit-identically.
 * Their meaning:
 * <ul>
 *   <li>{@code model}: the accepted model {@code x_k} (m/s);</li>
 *   <li>{@code gradient}: the total gradient at {@code x_k};</li>
 *   <li>{@code direction}: the current search direction;</li>
 *   <li>{@code trial}: the model the current round's shots evaluate;</li>
 *   <li>{@code misfits}: the misfit of {@code x_0 .. x_k} ({@code NaN} beyond);</li>
 *   <li>{@code scalars}: {@code [step length, directional derivative g.d]} of the line search;</li>
 *   <li>{@code counters}: {@code [round, iteration, phase, backtracks]};</li>
 *   <li>{@code lbfgs.s}, {@code lbfgs.y}, {@code lbfgs.ring}: see {@link Lbfgs}.</li>
 * </ul>
 *
 * <p>Not thread-safe; {@link FwiInversion} mutates it between rounds, on the caller's thread.
 */
public final class FwiState {
    static final int STEP = 0;
    static final int SLOPE = 1;
    static final int ROUND = 0;
    static final int ITERATION = 1;
    static final int PHASE = 2;
    static final int BACKTRACKS = 3;

    /** Where the inversion stands. */
    public enum Phase {
        /** The first round evaluates the starting model. */
        START,
        /** Rounds evaluate trial models along the search direction until one is accepted. */
        LINE_SEARCH,
        /** Done: the configured number of iterations was accepted. */
        DONE,
        /** Stopped early: the line search found no decrease, or the gradient vanished. */
        STALLED
    }

    final double[] model;
    final double[] gradient;
    final double[] direction;
    final double[] trial;
    final double[] misfits;
    final double[] scalars = new double[2];
    final long[] counters = new long[4];
    final Lbfgs lbfgs;
    private final Map<String, Object> arrays;

    FwiState(int modelSize, int lbfgsMemory, int maxIterations) {
        model = new double[modelSize];
        gradient = new double[modelSize];
        direction = new double[modelSize];
        trial = new double[modelSize];
        misfits = new double[maxIterations + 1];
        Arrays.fill(misfits, Double.NaN);
        lbfgs = new Lbfgs(modelSize, lbfgsMemory);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", model);
        m.put("gradient", gradient);
        m.put("direction", direction);
        m.put("trial", trial);
        m.put("misfits", misfits);
        m.put("scalars", scalars);
        m.put("counters", counters);
        m.put("lbfgs.s", lbfgs.sHistory());
        m.put("lbfgs.y", lbfgs.yHistory());
        m.put("lbfgs.ring", lbfgs.ring());
        arrays = Collections.unmodifiableMap(m);
    }

    /**
     * The state arrays by name, in a fixed order; each value is a {@code double[]} or a
     * {@code long[]}. The arrays are live: they are the state, not copies.
     */
    public Map<String, Object> arrays() {
        return arrays;
    }

    /** Deep copies of {@link #arrays()}, in the same order. */
    public Map<String, Object> copy() {
        Map<String, Object> m = new LinkedHashMap<>();
        arrays.forEach((name, array) -> m.put(name, array instanceof double[] d ? d.clone()
                : ((long[]) array).clone()));
        return m;
    }

    /**
     * Overwrites every state array in place with the array of the same name in {@code saved}, as
     * produced by {@link #copy()} (or read back from a checkpoint).
     *
     * @throws IllegalArgumentException if a name is missing or unknown, a type or length differs,
     *     or a counter is out of range; the state is then unchanged
     */
    public void restore(Map<String, ?> saved) {
        Objects.requireNonNull(saved, "saved");
        if (!saved.keySet().equals(arrays.keySet())) {
            throw new IllegalArgumentException("saved state has arrays " + saved.keySet()
                    + ", expected " + arrays.keySet());
        }
        arrays.forEach((name, array) -> {
            Object source = saved.get(name);
            boolean sameType = source != null && source.getClass() == array.getClass();
            if (!sameType || java.lang.reflect.Array.getLength(source)
                    != java.lang.reflect.Array.getLength(array)) {
                throw new IllegalArgumentException("saved array '" + name + "' does not match: "
                        + describe(source) + " instead of " + describe(array));
            }
        });
        long[] c = (long[]) saved.get("counters");
        long[] ring = (long[]) saved.get("lbfgs.ring");
        if (c[ROUND] < 0 || c[ITERATION] < 0 || c[ITERATION] >= misfits.length
                || c[PHASE] < 0 || c[PHASE] >= Phase.values().length || c[BACKTRACKS] < 0
                || ring[0] < 0 || ring[0] > lbfgs.capacity() || ring[1] < 0
                || ring[1] >= lbfgs.capacity()) {
            throw new IllegalArgumentException("saved counters " + Arrays.toString(c)
                    + " or L-BFGS ring " + Arrays.toString(ring) + " are out of range");
        }
        arrays.forEach((name, array) -> System.arraycopy(saved.get(name), 0, array, 0,
                java.lang.reflect.Array.getLength(array)));
    }

    private static String describe(Object array) {
        return array == null ? "nothing"
                : array.getClass().getComponentType() + "[" + java.lang.reflect.Array.getLength(array) + "]";
    }

    /** A copy of the accepted model. */
    public double[] model() {
        return model.clone();
    }

    /** Rounds completed so far; also the number of the round now open. */
    public long round() {
        return counters[ROUND];
    }

    /** Accepted iterations so far. */
    public int iteration() {
        return (int) counters[ITERATION];
    }

    /** Where the inversion stands. */
    public Phase phase() {
        return Phase.values()[(int) counters[PHASE]];
    }

    /** The misfit of each accepted model, from the starting model to the current one. */
    public double[] misfitHistory() {
        int accepted = phase() == Phase.START ? 0 : iteration() + 1;
        return Arrays.copyOf(misfits, accepted);
    }
}
