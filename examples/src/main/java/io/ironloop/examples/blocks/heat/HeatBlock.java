package io.ironloop.examples.blocks.heat;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.HaloBlock;
import java.util.Arrays;

/**
 * One block of the heat example: {@code cellsX × cellsY} temperatures with a one-cell halo, updated by Jacobi
 * steps ({@code u'[i] = (u[W] + u[E] + u[S] + u[N]) / 4}). Halo cells facing a neighbour block are filled by the
 * halo exchange (faces only: a five-point stencil needs no corners); those on the domain's edge hold the fixed
 * edge temperatures, set at creation and never written again.
 *
 * <p>Storage: row-major {@code double[(cellsX + 2) × (cellsY + 2)]}, index {@code y × (cellsX + 2) + x}, the
 * interior at {@code 1 … cellsX}, {@code 1 … cellsY}; two such arrays swap roles every step. One thread.
 */
public final class HeatBlock implements HaloBlock {
    private final int id;
    private final int nx;
    private final int ny;
    private final int stride;
    /** Whether the domain's edge (not a neighbour block) lies in direction EAST, WEST, NORTH, SOUTH. */
    private final boolean[] edge = new boolean[4];
    /** The outgoing halo of each face direction, reused every step (the receiver copies it). */
    private final double[][] out = new double[4][];
    private double[] u;
    private double[] next;

    /** Block {@code id} of {@code grid} under {@code config}, in its initial state. */
    public HeatBlock(int id, Grid2D grid, HeatBlocksConfig config) {
        this.id = id;
        this.nx = config.grid().cellsX();
        this.ny = config.grid().cellsY();
        this.stride = nx + 2;
        this.u = new double[stride * (ny + 2)];
        this.next = new double[u.length];
        for (int d = Grid2D.EAST; d <= Grid2D.SOUTH; d++) {
            edge[d] = grid.neighbour(id, d) < 0;
            out[d] = new double[d == Grid2D.EAST || d == Grid2D.WEST ? ny : nx];
        }
        // both arrays carry the edge values: the step writes only the interior of `next`
        for (double[] a : new double[][] {u, next}) {
            Arrays.fill(a, config.cold());
            if (edge[Grid2D.NORTH]) {
                Arrays.fill(a, (ny + 1) * stride + 1, (ny + 1) * stride + nx + 1, config.hot());
            }
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public double[] haloFor(int direction) {
        if (direction > Grid2D.SOUTH) {
            return null;
        }
        double[] h = out[direction];
        switch (direction) {
            case Grid2D.EAST -> column(nx, h);
            case Grid2D.WEST -> column(1, h);
            case Grid2D.NORTH -> System.arraycopy(u, ny * stride + 1, h, 0, nx);
            default -> System.arraycopy(u, stride + 1, h, 0, nx);
        }
        return h;
    }

    private void column(int x, double[] into) {
        for (int y = 1; y <= ny; y++) {
            into[y - 1] = u[y * stride + x];
        }
    }

    @Override
    public void acceptHalo(int direction, double[] data) {
        switch (direction) {
            case Grid2D.EAST -> fillColumn(nx + 1, data);
            case Grid2D.WEST -> fillColumn(0, data);
            case Grid2D.NORTH -> System.arraycopy(data, 0, u, (ny + 1) * stride + 1, nx);
            case Grid2D.SOUTH -> System.arraycopy(data, 0, u, 1, nx);
            default -> throw new IllegalArgumentException("block " + id + ": a heat block takes no halo from direction " + direction);
        }
    }

    private void fillColumn(int x, double[] data) {
        for (int y = 1; y <= ny; y++) {
            u[y * stride + x] = data[y - 1];
        }
    }

    /**
     * One Jacobi step of the interior from the current field and halo. The inner loop counts cells from 1 to {@code nx}
     * at a row's offset: the JIT compiles that form about twice as fast as one running the array index itself up to
     * {@code row + nx} (the same arithmetic, the same bits; measured against the skeleton's kernel, 2026-11-24).
     */
    public void relax() {
        double[] a = u;
        double[] b = next;
        int s = stride;
        for (int y = 1; y <= ny; y++) {
            int row = y * s;
            for (int x = 1; x <= nx; x++) {
                b[row + x] = 0.25 * (a[row + x - 1] + a[row + x + 1] + a[row + x - s] + a[row + x + s]);
            }
        }
        u = b;
        next = a;
    }

    /** The sum of the interior temperatures (the block's heat, in units of one cell's). */
    double total() {
        double sum = 0;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * stride + 1; i <= y * stride + nx; i++) {
                sum += u[i];
            }
        }
        return sum;
    }

    /**
     * The heat the next step lets in through the domain's edges, times four: the sum over this block's faces on
     * the domain edge of (edge temperature − adjacent cell). A Jacobi step changes the domain's total heat by
     * exactly a quarter of the domain's sum of this (the inner faces cancel), which the tests check.
     */
    double edgeInflow() {
        double sum = 0;
        for (int y = 1; y <= ny; y++) {
            int row = y * stride;
            sum += edge[Grid2D.WEST] ? u[row] - u[row + 1] : 0;
            sum += edge[Grid2D.EAST] ? u[row + nx + 1] - u[row + nx] : 0;
        }
        for (int x = 1; x <= nx; x++) {
            sum += edge[Grid2D.SOUTH] ? u[x] - u[stride + x] : 0;
            sum += edge[Grid2D.NORTH] ? u[(ny + 1) * stride + x] - u[ny * stride + x] : 0;
        }
        return sum;
    }

    /** The lowest interior temperature. */
    double minimum() {
        double m = Double.POSITIVE_INFINITY;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * stride + 1; i <= y * stride + nx; i++) {
                m = Math.min(m, u[i]);
            }
        }
        return m;
    }

    /** The highest interior temperature. */
    double maximum() {
        double m = Double.NEGATIVE_INFINITY;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * stride + 1; i <= y * stride + nx; i++) {
                m = Math.max(m, u[i]);
            }
        }
        return m;
    }

    /**
     * Writes the field with its halo: one bulk copy. The halo goes with it although the next exchange refreshes
     * it, because copying row by row would cost more than the few extra bytes.
     */
    @Override
    public void save(StateSink sink) {
        sink.putDoubles(u);
    }

    @Override
    public void restore(StateSource source) {
        source.getDoubles(u);
    }
}
