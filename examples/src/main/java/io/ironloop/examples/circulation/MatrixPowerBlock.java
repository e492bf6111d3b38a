package io.ironloop.examples.circulation;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.HaloBlock;

/**
 * One block of the hand-written matrix power: its rows of {@code A} (rebuilt from the seed, never saved) and the
 * {@code m} columns of {@code X} it holds now, each {@code n} old values then {@code n} new ones, row-major. The
 * columns arrive from the west and leave to the east after each step. One thread.
 */
public final class MatrixPowerBlock implements HaloBlock {
    private final int id;
    private final MatrixPower problem;
    private final double[] rows;
    private final double[] columns;
    private final double[] out;

    /** Block {@code id} with the columns it holds at step 0. */
    public MatrixPowerBlock(int id, MatrixPower problem) {
        this.id = id;
        this.problem = problem;
        this.rows = problem.rowsOf(id);
        int n = problem.n();
        this.columns = new double[problem.block() * 2 * n];
        this.out = new double[columns.length];
        for (int k = 0; k < problem.block(); k++) {
            for (int i = 0; i < n; i++) {
                columns[k * 2 * n + i] = problem.initial(i, id * problem.block() + k);
            }
        }
    }

    @Override
    public int id() {
        return id;
    }

    /** Computes this block's rows of {@code A·x} for every column it holds at {@code step}. */
    void multiply(long step) {
        int n = problem.n();
        for (int k = 0; k < problem.block(); k++) {
            problem.multiply(rows, id, columns, k * 2 * n, columns, k * 2 * n + n);
            if (problem.endsRound(step)) {
                System.arraycopy(columns, k * 2 * n + n, columns, k * 2 * n, n);
            }
        }
    }

    @Override
    public double[] haloFor(int direction) {
        if (direction != Grid2D.EAST) {
            return null;
        }
        System.arraycopy(columns, 0, out, 0, columns.length);
        return out;
    }

    @Override
    public void acceptHalo(int direction, double[] data) {
        if (direction != Grid2D.WEST || data.length != columns.length) {
            throw new IllegalArgumentException("block " + id + " takes " + columns.length + " values from the west, not " + data.length
                    + " from direction " + direction);
        }
        System.arraycopy(data, 0, columns, 0, data.length);
    }

    /** The old values of the columns held, {@code m × n}. */
    double[] oldValues() {
        int n = problem.n();
        double[] v = new double[problem.block() * n];
        for (int k = 0; k < problem.block(); k++) {
            System.arraycopy(columns, k * 2 * n, v, k * n, n);
        }
        return v;
    }

    /** The sum of the old values held. */
    double total() {
        double s = 0;
        for (double v : oldValues()) {
            s += v;
        }
        return s;
    }

    @Override
    public void save(StateSink sink) {
        sink.putDoubles(columns);
    }

    @Override
    public void restore(StateSource source) {
        source.getDoubles(columns);
    }
}
