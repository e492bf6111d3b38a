package io.ironloop.examples.swing;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.blocks.HaloBlock;
import java.util.Map;

/**
 * One part of the hand-written gas-storage valuation: the rows {@code [lo, hi)} of {@code V(t + 1, ·)} it reads at
 * the next step ({@code paths} values per level). A step computes the levels the part possesses into a new array, then
 * sends each other part the computed rows it needs at the following step and receives its own from them; the rows
 * held change every step. One thread.
 */
public final class GasStorageBlock implements HaloBlock {
    private final int id;
    private final GasStorage storage;
    private final int paths;
    private int lo;
    private int hi;
    private double[] v;
    /** During a step: the step, the rows computed {@code [from, to)} and the rows being gathered for the next step. */
    private int t;
    private int from;
    private int to;
    private double[] computed;
    private int[] nextRows;
    private double[] next;

    /** Part {@code id} before the first step ({@code t = T − 1}): {@code V(T, ·) = 0} on the rows it needs. */
    public GasStorageBlock(int id, GasStorage storage) {
        this.id = id;
        this.storage = storage;
        this.paths = storage.paths();
        int[] n = storage.needed(id, storage.steps() - 1);
        this.lo = n[0];
        this.hi = n[1];
        this.v = new double[(hi - lo) * paths];
    }

    @Override
    public int id() {
        return id;
    }

    /** Computes this part's levels at {@code t} and starts the rows of the next step with those it keeps. */
    void compute(int t) {
        this.t = t;
        int[] b = storage.bounds(t);
        from = b[id];
        to = b[id + 1];
        computed = new double[(to - from) * paths];
        storage.compute(t, from, to, v, lo, computed, from);
        nextRows = storage.needed(id, Math.max(t - 1, 0));
        next = new double[(nextRows[1] - nextRows[0]) * paths];
        copy(from, to, nextRows, next);
    }

    /** Copies the computed rows of {@code [a, b)} that {@code rows} covers into {@code into} (row {@code rows[0]} first). */
    private int copy(int a, int b, int[] rows, double[] into) {
        int x = Math.max(a, rows[0]);
        int y = Math.min(b, rows[1]);
        if (x >= y) {
            return 0;
        }
        System.arraycopy(computed, (x - from) * paths, into, (x - rows[0]) * paths, (y - x) * paths);
        return y - x;
    }

    @Override
    public double[] haloFor(int direction) {
        int q = (id + direction) % storage.parts();
        int[] rows = storage.needed(q, Math.max(t - 1, 0));
        int x = Math.max(from, rows[0]);
        int y = Math.min(to, rows[1]);
        if (x >= y) {
            return null;
        }
        double[] out = new double[(y - x) * paths];
        System.arraycopy(computed, (x - from) * paths, out, 0, out.length);
        return out;
    }

    @Override
    public void acceptHalo(int direction, double[] data) {
        int q = (id + direction) % storage.parts();
        int[] b = storage.bounds(t);
        int x = Math.max(b[q], nextRows[0]);
        int y = Math.min(b[q + 1], nextRows[1]);
        if (data.length != Math.max(0, y - x) * paths) {
            throw new IllegalStateException("part " + id + " got " + data.length + " values from part " + q + " at step " + t
                    + ", where it needs levels [" + x + ", " + y + ")");
        }
        System.arraycopy(data, 0, next, (x - nextRows[0]) * paths, data.length);
    }

    /** After the exchange: the gathered rows become the ones the next step reads. */
    void advance() {
        lo = nextRows[0];
        hi = nextRows[1];
        v = next;
        computed = null;
        next = null;
    }

    /** After the last step: this part's levels of {@code V(0, ·)}. */
    Map<Integer, double[]> result() {
        int[] b = storage.bounds(0);
        return Map.of(b[id], java.util.Arrays.copyOfRange(v, (b[id] - lo) * paths, (b[id + 1] - lo) * paths));
    }

    /** The sum over paths of {@code V(0, start, ·)} if this part holds the start level after the last step, else 0. */
    double startValue() {
        int[] b = storage.bounds(0);
        int s = storage.start();
        if (s < b[id] || s >= b[id + 1]) {
            return 0;
        }
        double sum = 0;
        for (int j = 0; j < paths; j++) {
            sum += v[(s - lo) * paths + j];
        }
        return sum;
    }

    @Override
    public void save(StateSink sink) {
        sink.putInt(lo);
        sink.putInt(hi);
        sink.putDoubles(v);
    }

    @Override
    public void restore(StateSource source) {
        lo = source.getInt();
        hi = source.getInt();
        v = new double[(hi - lo) * paths];
        source.getDoubles(v);
    }
}
