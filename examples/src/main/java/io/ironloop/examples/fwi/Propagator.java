package io.ironloop.examples.fwi;

/**
 * The finite-difference time-domain kernels for one velocity model: one step of the damped acoustic
 * wave equation and one step of its exact discrete adjoint.
 *
 * <p>The scheme is {@code u_tt + eta u_t = v^2 (L u + f)}: second order in time (centred), 4th order
 * in space ({@code L} is the 5-point-per-axis Laplacian with zero halo, hence symmetric), with a
 * damping {@code eta} that is zero in the physical grid and grows quadratically across the sponge.
 * Written as a recurrence with {@code a = 1/(1 + eta dt/2)}, {@code b = (1 - eta dt/2) a} and
 * {@code c = dt^2 v^2}:
 * <pre>
 *   D^n     = a (L u^n + f^n)
 *   u^{n+1} = 2a u^n + c D^n - b u^{n-1}
 * </pre>
 * {@code D^n} is the derivative of {@code u^{n+1}} with respect to {@code c}: the gradient is
 * {@code sum_n D^n p^{n+1}}, the zero-lag correlation of the adjoint field with the forward field's
 * (scaled) second time derivative. Because every result passes through these two methods, the misfit,
 * the recomputed wavefield and the gradient are consistent to the last bit.
 *
 * <p>Instances are immutable after construction and may be shared by threads; the arrays passed to
 * the step methods belong to the caller.
 */
final class Propagator {
    private final Grid grid;
    private final double[] a;
    private final double[] a2;
    private final double[] b;
    private final double[] c;
    private final double[] ac;
    private final double c0;
    private final double c1;
    private final double c2;

    /**
     * Prepares the coefficients for {@code model} (physical grid, m/s).
     *
     * @param maxDamping the damping {@code eta} at the outer edge of the sponge, 1/s
     */
    Propagator(Grid grid, double[] model, double spacing, double dt, double maxDamping) {
        this.grid = grid;
        int cells = grid.cells();
        double[] v = new double[cells];
        grid.extend(model, v);
        a = new double[cells];
        a2 = new double[cells];
        b = new double[cells];
        c = new double[cells];
        ac = new double[cells];
        int stride = grid.stride();
        for (int row = grid.firstRow(); row < grid.endRow(); row++) {
            for (int col = grid.firstColumn(); col < grid.endColumn(); col++) {
                int i = row * stride + col;
                double depth = (double) grid.depthIntoSponge(col, row) / grid.sponge();
                double half = 0.5 * dt * maxDamping * depth * depth;
                a[i] = 1.0 / (1.0 + half);
                a2[i] = 2.0 * a[i];
                b[i] = (1.0 - half) * a[i];
                c[i] = dt * dt * v[i] * v[i];
                ac[i] = a[i] * c[i];
            }
        }
        double h2 = spacing * spacing;
        c0 = -5.0 / h2;
        c1 = 4.0 / (3.0 * h2);
        c2 = -1.0 / (12.0 * h2);
    }

    /**
     * Advances one time step: writes {@code D^n} into {@code d} and {@code u^{n+1}} into
     * {@code next}, from {@code u^n} ({@code now}) and {@code u^{n-1}} ({@code previous}), with a
     * point force {@code force} at field cell {@code source}. The four arrays must be distinct.
     */
    void step(double[] now, double[] previous, double[] next, double[] d, int source, double force) {
        int stride = grid.stride();
        int end = grid.endColumn();
        for (int row = grid.firstRow(); row < grid.endRow(); row++) {
            int base = row * stride;
            for (int i = base + grid.firstColumn(); i < base + end; i++) {
                double di = a[i] * laplacian(now, i, stride);
                d[i] = di;
                next[i] = a2[i] * now[i] + c[i] * di - b[i] * previous[i];
            }
        }
        // The source cell again, now with its force, through the same expressions.
        double ds = a[source] * (laplacian(now, source, stride) + force);
        d[source] = ds;
        next[source] = a2[source] * now[source] + c[source] * ds - b[source] * previous[source];
    }

    /**
     * One step of the adjoint recurrence, backwards in time:
     * {@code p^{n+1} = 2a p^{n+2} + L(a c p^{n+2}) - b p^{n+3} + R^T r^n}.
     *
     * @param later     {@code p^{n+2}}
     * @param latest    {@code p^{n+3}}
     * @param result    receives {@code p^{n+1}}; distinct from the other arrays
     * @param scratch   a field array for {@code a c p^{n+2}}; halo entries must be zero
     * @param receivers field cells of the receivers
     * @param residuals residuals, receiver-fastest; sample {@code n} starts at {@code offset}
     */
    void adjointStep(double[] later, double[] latest, double[] result, double[] scratch,
            int[] receivers, double[] residuals, int offset) {
        int stride = grid.stride();
        int end = grid.endColumn();
        for (int row = grid.firstRow(); row < grid.endRow(); row++) {
            int base = row * stride;
            for (int i = base + grid.firstColumn(); i < base + end; i++) {
                scratch[i] = ac[i] * later[i];
            }
        }
        for (int row = grid.firstRow(); row < grid.endRow(); row++) {
            int base = row * stride;
            for (int i = base + grid.firstColumn(); i < base + end; i++) {
                result[i] = a2[i] * later[i] + laplacian(scratch, i, stride) - b[i] * latest[i];
            }
        }
        for (int r = 0; r < receivers.length; r++) {
            result[receivers[r]] += residuals[offset + r];
        }
    }

    private double laplacian(double[] u, int i, int stride) {
        return c0 * u[i]
                + c1 * (u[i - 1] + u[i + 1] + u[i - stride] + u[i + stride])
                + c2 * (u[i - 2] + u[i + 2] + u[i - 2 * stride] + u[i + 2 * stride]);
    }
}
