package io.ironloop.examples.blocks.lbm;

import static io.ironloop.examples.blocks.lbm.D2Q9.Q;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.HaloBlock;

/**
 * One block of the lattice-Boltzmann example: the nine post-collision distributions of
 * {@code cellsX × cellsY} cells with a one-cell halo, advanced by a fused pull-stream and BGK collide step.
 *
 * <p>A step: the halo exchange brings, from each of the eight neighbours, exactly the distributions that stream
 * into this block (three per face cell, one per corner, {@link D2Q9#CROSSING}); {@link #update()} then fills
 * the outflow halo (zero gradient: a copy of the last column, including the two corner cells the exchange just
 * filled), and every fluid cell pulls {@code f_q(x − c_q)} — or, when that cell is solid (a wall or the
 * cylinder), its own {@code f_opp(q)(x)}: half-way bounce-back — and relaxes towards equilibrium. Inflow halo
 * cells hold the equilibrium of the inflow profile, set at creation and never written again; wall halo cells
 * are solid. Each cell's arithmetic reads only its block and the halo, so the result does not depend on who owns
 * which block, nor on how the channel is cut into blocks.
 *
 * <p>Storage: structure of arrays, {@code f[q × cells + y × (cellsX + 2) + x]}; two arrays swap roles every
 * step. Solid cells are never updated. One thread.
 */
public final class LbmBlock implements HaloBlock {
    private final int id;
    private final int nx;
    private final int ny;
    private final int sx;
    private final int cells;
    private final double omega;
    private final int originX;
    private final int originY;
    private final boolean outlet;
    /** Solid cells, halo included: the walls beyond the channel's long sides and the cylinder. */
    private final boolean[] solid;
    /** The outgoing halo of each direction, reused every step (the receiver copies it). */
    private final double[][] out = new double[8][];
    /** Per direction: the x and y ranges ({@code x0, x1, y0, y1}, inclusive) sent that way and received from it. */
    private final int[][] sendRange = new int[8][];
    private final int[][] receiveRange = new int[8][];
    private final int[][] receiveVelocities = new int[8][];
    private double[] f;
    private double[] next;

    /** Block {@code id} of {@code grid} under {@code config}, at the equilibrium of the inflow profile. */
    LbmBlock(int id, Grid2D grid, LbmConfig config) {
        this.id = id;
        this.nx = config.grid().cellsX();
        this.ny = config.grid().cellsY();
        this.sx = nx + 2;
        this.cells = sx * (ny + 2);
        this.omega = 1 / config.tau();
        this.originX = grid.x(id) * nx - 1; // the global x of local column 0 (the west halo)
        this.originY = grid.y(id) * ny - 1;
        this.outlet = config.flow() == LbmConfig.Flow.CHANNEL && grid.neighbour(id, Grid2D.EAST) < 0;
        this.solid = new boolean[cells];
        this.f = new double[Q * cells];
        this.next = new double[Q * cells];
        for (int d = 0; d < out.length; d++) {
            sendRange[d] = range(d, false);
            receiveRange[d] = range(d, true);
            // the neighbour that way sends what crosses towards this block: the velocities of the opposite direction
            receiveVelocities[d] = D2Q9.CROSSING[grid.opposite(d)];
            int[] r = sendRange[d];
            out[d] = new double[D2Q9.CROSSING[d].length * (r[1] - r[0] + 1) * (r[3] - r[2] + 1)];
        }
        initialise(config);
    }

    /** The cells of the edge that way, {@code {x0, x1, y0, y1}}: the outermost interior cells, or the halo beyond them. */
    private int[] range(int d, boolean halo) {
        int[] xs = span(Grid2D.dx(d), nx, halo ? 1 : 0);
        int[] ys = span(Grid2D.dy(d), ny, halo ? 1 : 0);
        return new int[] {xs[0], xs[1], ys[0], ys[1]};
    }

    private static int[] span(int step, int n, int beyond) {
        return step > 0 ? new int[] {n + beyond, n + beyond} : step < 0 ? new int[] {1 - beyond, 1 - beyond} : new int[] {1, n};
    }

    /** Marks solid cells and sets every cell, halo included, to the equilibrium of the inflow profile (solid: at rest). */
    private void initialise(LbmConfig c) {
        int totalX = c.grid().totalX();
        int totalY = c.grid().totalY();
        double r2 = (double) c.radius() * c.radius();
        for (int y = 0; y <= ny + 1; y++) {
            int gy = originY + y;
            double ux = profile(gy, totalY, c.velocity());
            for (int x = 0; x <= nx + 1; x++) {
                int gx = originX + x;
                if (c.flow() == LbmConfig.Flow.PERIODIC) {
                    gx = Math.floorMod(gx, totalX);
                }
                double ddx = gx + 0.5 - c.cylinderX();
                double ddy = gy + 0.5 - c.cylinderY();
                int i = y * sx + x;
                solid[i] = gy < 0 || gy >= totalY || (c.radius() > 0 && ddx * ddx + ddy * ddy <= r2);
                for (int q = 0; q < Q; q++) {
                    // both arrays: the step writes only fluid interior cells of `next`, the inflow halo stays as set here
                    f[q * cells + i] = D2Q9.equilibrium(q, 1.0, solid[i] ? 0 : ux, 0);
                    next[q * cells + i] = f[q * cells + i];
                }
            }
        }
    }

    /** The inflow profile: Poiseuille's parabola between the walls (half-way between the last cells and the walls' halo). */
    private static double profile(int gy, int totalY, double peak) {
        if (gy < 0 || gy >= totalY) {
            return 0;
        }
        double y = gy + 0.5;
        return 4 * peak * y * (totalY - y) / ((double) totalY * totalY);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public double[] haloFor(int direction) {
        double[] h = out[direction];
        copy(direction, sendRange[direction], D2Q9.CROSSING[direction], h, true);
        return h;
    }

    @Override
    public void acceptHalo(int direction, double[] data) {
        copy(direction, receiveRange[direction], receiveVelocities[direction], data, false);
    }

    /** Copies the velocities {@code qs} of the cells in {@code range} to ({@code toHalo}) or from {@code halo}, in one fixed order. */
    private void copy(int direction, int[] range, int[] qs, double[] halo, boolean toHalo) {
        int width = range[1] - range[0] + 1;
        int expected = qs.length * width * (range[3] - range[2] + 1);
        if (halo.length != expected) {
            throw new IllegalArgumentException("block " + id + ": a halo from direction " + direction + " has " + halo.length
                    + " values, not " + expected);
        }
        int k = 0;
        for (int q : qs) {
            for (int y = range[2]; y <= range[3]; y++) {
                int at = q * cells + y * sx + range[0];
                if (toHalo) {
                    System.arraycopy(f, at, halo, k, width);
                } else {
                    System.arraycopy(halo, k, f, at, width);
                }
                k += width;
            }
        }
    }

    /** One time step of every fluid cell, after the halo exchange. */
    void update() {
        if (outlet) {
            fillOutflow();
        }
        streamAndCollide(f, next);
        double[] t = f;
        f = next;
        next = t;
    }

    /** Zero-gradient outflow: the east halo column's westward velocities are those of the last column. */
    private void fillOutflow() {
        for (int q : D2Q9.CROSSING[Grid2D.WEST]) {
            for (int y = 0; y <= ny + 1; y++) {
                int i = q * cells + y * sx + nx;
                f[i + 1] = f[i];
            }
        }
    }

    /** The fused pull-stream, bounce-back and BGK collision, unrolled over the nine velocities (the hot loop). */
    private void streamAndCollide(double[] a, double[] b) {
        final boolean[] s = solid;
        final int n1 = cells;
        final int n2 = 2 * cells;
        final int n3 = 3 * cells;
        final int n4 = 4 * cells;
        final int n5 = 5 * cells;
        final int n6 = 6 * cells;
        final int n7 = 7 * cells;
        final int n8 = 8 * cells;
        final int w = sx;
        final double om = omega;
        for (int y = 1; y <= ny; y++) {
            int end = y * w + nx;
            for (int i = y * w + 1; i <= end; i++) {
                if (s[i]) {
                    continue;
                }
                double f0 = a[i];
                double f1 = s[i - 1] ? a[n3 + i] : a[n1 + i - 1];
                double f2 = s[i - w] ? a[n4 + i] : a[n2 + i - w];
                double f3 = s[i + 1] ? a[n1 + i] : a[n3 + i + 1];
                double f4 = s[i + w] ? a[n2 + i] : a[n4 + i + w];
                double f5 = s[i - 1 - w] ? a[n7 + i] : a[n5 + i - 1 - w];
                double f6 = s[i + 1 - w] ? a[n8 + i] : a[n6 + i + 1 - w];
                double f7 = s[i + 1 + w] ? a[n5 + i] : a[n7 + i + 1 + w];
                double f8 = s[i - 1 + w] ? a[n6 + i] : a[n8 + i - 1 + w];
                double rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8;
                double ux = (f1 - f3 + f5 - f6 - f7 + f8) / rho;
                double uy = (f2 - f4 + f5 + f6 - f7 - f8) / rho;
                double usq = 1.5 * (ux * ux + uy * uy);
                double r0 = D2Q9.W0 * rho;
                double ra = D2Q9.W_AXIS * rho;
                double rd = D2Q9.W_DIAGONAL * rho;
                double p = ux + uy; // c·u of north-east, minus that of south-west
                double m = ux - uy; // c·u of south-east, minus that of north-west
                b[i] = f0 + om * (r0 * (1 - usq) - f0);
                b[n1 + i] = f1 + om * (ra * (1 + 3 * ux + 4.5 * ux * ux - usq) - f1);
                b[n2 + i] = f2 + om * (ra * (1 + 3 * uy + 4.5 * uy * uy - usq) - f2);
                b[n3 + i] = f3 + om * (ra * (1 - 3 * ux + 4.5 * ux * ux - usq) - f3);
                b[n4 + i] = f4 + om * (ra * (1 - 3 * uy + 4.5 * uy * uy - usq) - f4);
                b[n5 + i] = f5 + om * (rd * (1 + 3 * p + 4.5 * p * p - usq) - f5);
                b[n6 + i] = f6 + om * (rd * (1 - 3 * m + 4.5 * m * m - usq) - f6);
                b[n7 + i] = f7 + om * (rd * (1 - 3 * p + 4.5 * p * p - usq) - f7);
                b[n8 + i] = f8 + om * (rd * (1 + 3 * m + 4.5 * m * m - usq) - f8);
            }
        }
    }

    /** The mass of the fluid cells (the sum of their densities). */
    double mass() {
        double sum = 0;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * sx + 1; i <= y * sx + nx; i++) {
                if (!solid[i]) {
                    for (int q = 0; q < Q; q++) {
                        sum += f[q * cells + i];
                    }
                }
            }
        }
        return sum;
    }

    /** The x momentum of the fluid cells. */
    double momentumX() {
        double sum = 0;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * sx + 1; i <= y * sx + nx; i++) {
                if (!solid[i]) {
                    for (int q = 0; q < Q; q++) {
                        sum += D2Q9.CX[q] * f[q * cells + i];
                    }
                }
            }
        }
        return sum;
    }

    /** The number of fluid cells. */
    int fluidCells() {
        int count = 0;
        for (int y = 1; y <= ny; y++) {
            for (int i = y * sx + 1; i <= y * sx + nx; i++) {
                count += solid[i] ? 0 : 1;
            }
        }
        return count;
    }

    /** Whether global cell ({@code gx}, {@code gy}) is one of this block's. */
    boolean contains(int gx, int gy) {
        return gx > originX && gx <= originX + nx && gy > originY && gy <= originY + ny;
    }

    /** The velocity of global cell ({@code gx}, {@code gy}) of this block: {@code {ux, uy}}, zeros if it is solid. */
    double[] velocity(int gx, int gy) {
        if (!contains(gx, gy)) {
            throw new IllegalArgumentException("cell (" + gx + ", " + gy + ") is not in block " + id);
        }
        int i = (gy - originY) * sx + gx - originX;
        if (solid[i]) {
            return new double[2];
        }
        double rho = 0;
        double jx = 0;
        double jy = 0;
        for (int q = 0; q < Q; q++) {
            double v = f[q * cells + i];
            rho += v;
            jx += D2Q9.CX[q] * v;
            jy += D2Q9.CY[q] * v;
        }
        return new double[] {jx / rho, jy / rho};
    }

    /**
     * Writes the distributions with their halo: one bulk copy. The halo goes with it although the next step
     * refreshes most of it, because copying row by row would cost more than the few extra bytes.
     */
    @Override
    public void save(StateSink sink) {
        sink.putDoubles(f);
    }

    @Override
    public void restore(StateSource source) {
        source.getDoubles(f);
    }
}
