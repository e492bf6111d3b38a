package io.ironloop.examples.blocks.lbm;

import io.ironloop.runtime.blocks.Grid2D;

/**
 * The D2Q9 lattice: nine velocities {@code c_q} (rest, the four axes, the four diagonals), their weights, their
 * opposites, and the BGK equilibrium. Lattice units: spacing, time step and density 1, sound speed
 * {@code 1/√3}.
 *
 * <p>Velocity order: 0 rest, 1 east, 2 north, 3 west, 4 south, 5 north-east, 6 north-west, 7 south-west,
 * 8 south-east (north is +y, as in {@link Grid2D}).
 */
final class D2Q9 {
    /** The number of velocities. */
    static final int Q = 9;
    static final int[] CX = {0, 1, 0, -1, 0, 1, -1, -1, 1};
    static final int[] CY = {0, 0, 1, 0, -1, 1, 1, -1, -1};
    static final int[] OPPOSITE = {0, 3, 4, 1, 2, 7, 8, 5, 6};
    static final double W0 = 4.0 / 9.0;
    static final double W_AXIS = 1.0 / 9.0;
    static final double W_DIAGONAL = 1.0 / 36.0;
    static final double[] W = {W0, W_AXIS, W_AXIS, W_AXIS, W_AXIS, W_DIAGONAL, W_DIAGONAL, W_DIAGONAL, W_DIAGONAL};

    /**
     * For each {@link Grid2D} direction, the velocities that cross a block's edge that way, ascending: three for
     * a face (e.g. east: 1, 5, 8), one for a corner (north-east: 5). These are what a block sends that way after
     * collision, and all the neighbour's streaming needs from it.
     */
    static final int[][] CROSSING = crossing();

    private D2Q9() {
    }

    /** The equilibrium of velocity {@code q} at density {@code rho} and velocity ({@code ux}, {@code uy}). */
    static double equilibrium(int q, double rho, double ux, double uy) {
        double cu = CX[q] * ux + CY[q] * uy;
        return W[q] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * (ux * ux + uy * uy));
    }

    private static int[][] crossing() {
        int[][] t = new int[8][];
        for (int d = 0; d < t.length; d++) {
            int dx = Grid2D.dx(d);
            int dy = Grid2D.dy(d);
            t[d] = java.util.stream.IntStream.range(0, Q)
                    .filter(q -> (dx == 0 || CX[q] == dx) && (dy == 0 || CY[q] == dy)).toArray();
        }
        return t;
    }
}
