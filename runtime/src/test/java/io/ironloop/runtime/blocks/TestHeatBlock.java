package io.ironloop.runtime.blocks;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;

/** A small 2-D Jacobi block with a one-cell halo on four sides, for the loop's tests. */
final class TestHeatBlock implements HaloBlock {
    static final int N = 8;
    private final int id;
    private final Grid2D grid;
    private double[] u = new double[(N + 2) * (N + 2)];
    private double[] next = new double[(N + 2) * (N + 2)];

    TestHeatBlock(int id, Grid2D grid) {
        this.id = id;
        this.grid = grid;
        for (int y = 1; y <= N; y++) {
            for (int x = 1; x <= N; x++) {
                u[y * (N + 2) + x] = ((id * 31 + x * 7 + y * 13) % 17) / 17.0;
            }
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public double[] haloFor(int d) {
        double[] h = new double[N];
        for (int k = 0; k < N; k++) {
            h[k] = switch (d) {
                case Grid2D.EAST -> u[(k + 1) * (N + 2) + N];
                case Grid2D.WEST -> u[(k + 1) * (N + 2) + 1];
                case Grid2D.NORTH -> u[N * (N + 2) + k + 1];
                case Grid2D.SOUTH -> u[(N + 2) + k + 1];
                default -> Double.NaN;
            };
        }
        return d <= Grid2D.SOUTH ? h : null;
    }

    @Override
    public void acceptHalo(int d, double[] h) {
        for (int k = 0; k < N; k++) {
            switch (d) {
                case Grid2D.EAST -> u[(k + 1) * (N + 2) + N + 1] = h[k];
                case Grid2D.WEST -> u[(k + 1) * (N + 2)] = h[k];
                case Grid2D.NORTH -> u[(N + 1) * (N + 2) + k + 1] = h[k];
                case Grid2D.SOUTH -> u[k + 1] = h[k];
                default -> throw new IllegalArgumentException("direction " + d);
            }
        }
    }

    void relax() {
        for (int y = 1; y <= N; y++) {
            for (int x = 1; x <= N; x++) {
                int i = y * (N + 2) + x;
                next[i] = 0.25 * (u[i - 1] + u[i + 1] + u[i - (N + 2)] + u[i + (N + 2)]);
            }
        }
        double[] t = u;
        u = next;
        next = t;
    }

    double total() {
        double s = 0;
        for (int y = 1; y <= N; y++) {
            for (int x = 1; x <= N; x++) {
                s += u[y * (N + 2) + x];
            }
        }
        return s;
    }

    @Override
    public void save(StateSink sink) {
        sink.putDoubles(u);
    }

    @Override
    public void restore(StateSource source) {
        source.getDoubles(u);
    }
}
