package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockGrid;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings of a D2Q9 lattice-Boltzmann flow past a cylinder on blocks, in lattice units: the grid of blocks
 * and cells (x is the flow direction), the number of steps, the BGK
 * relaxation time {@code tau} (viscosity {@code (tau − 1/2) / 3}), the peak velocity of the parabolic inflow
 * profile, the cylinder's radius in cells (0: no cylinder) and the kind of flow.
 *
 * <p>The cylinder's centre is at one fifth of the channel's length and half a cell above its middle (so that the
 * wake is not perfectly symmetric and can start to shed). Two presets: {@link #test()} and {@link #demo()}.
 *
 * @param grid the blocks and their cells
 * @param steps time steps of a complete run, at least 1
 * @param tau BGK relaxation time, in (0.5, 2]
 * @param velocity the peak inflow velocity (initial peak velocity of a periodic flow), in (0, 0.2]: a lattice Mach
 *     number below 0.35, where BGK stays accurate and stable
 * @param radius the cylinder's radius in cells, 0 for none; the cylinder must lie inside the channel
 * @param flow a channel with inflow and outflow, or a closed periodic one
 */
public record LbmConfig(BlockGrid grid, long steps, double tau, double velocity, int radius, Flow flow) {

    /** How the channel's ends behave. Its long sides (south and north) are always no-slip walls. */
    public enum Flow {
        /** Inflow at the west end (the parabolic profile, at equilibrium), zero-gradient outflow at the east end. */
        CHANNEL,
        /** The ends are joined (periodic in x): a closed box in which mass is conserved to round-off. */
        PERIODIC
    }

    /** Checks every rule; see {@link Builder}. */
    public LbmConfig {
        new Builder().grid(grid).steps(steps).tau(tau).velocity(velocity).radius(radius).flow(flow)
                .check();
    }

    /** The test size: 4 × 2 blocks of 16 × 16 cells (64 × 32), a cylinder of radius 4, 100 steps. */
    public static LbmConfig test() {
        return new LbmConfig(new BlockGrid(4, 2, 16, 16), 100, 0.6, 0.1, 4, Flow.CHANNEL);
    }

    /** The demo size: 8 × 2 blocks of 40 × 40 cells (320 × 80), a cylinder of radius 8 (Reynolds number 48), 600 steps. */
    public static LbmConfig demo() {
        return new LbmConfig(new BlockGrid(8, 2, 40, 40), 600, 0.6, 0.1, 8, Flow.CHANNEL);
    }

    /** A builder with no field set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this configuration; each field may be set once more. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.grid = grid;
        b.steps = steps;
        b.tau = tau;
        b.velocity = velocity;
        b.radius = radius;
        b.flow = flow;
        return b;
    }

    /** The kinematic viscosity, {@code (tau − 1/2) / 3}. */
    public double viscosity() {
        return (tau - 0.5) / 3;
    }

    /** The Reynolds number on the cylinder's diameter and the peak velocity (0 without a cylinder). */
    public double reynolds() {
        return velocity * 2 * radius / viscosity();
    }

    /** The x coordinate of the cylinder's centre (cell {@code i} spans {@code [i, i + 1)}). */
    public double cylinderX() {
        return grid.totalX() / 5.0;
    }

    /** The y coordinate of the cylinder's centre. */
    public double cylinderY() {
        return grid.totalY() / 2.0 + 0.5;
    }

    /** The settings as ordered name/value strings, fingerprinted into the run's disk lines. */
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("app", "lbm-cylinder");
        m.put("blocks", grid.blocksX() + "x" + grid.blocksY());
        m.put("cells", grid.cellsX() + "x" + grid.cellsY());
        m.put("steps", Long.toString(steps));
        m.put("tau", Double.toString(tau));
        m.put("velocity", Double.toString(velocity));
        m.put("radius", Integer.toString(radius));
        m.put("flow", flow.name().toLowerCase(Locale.ROOT));
        return m;
    }

    /**
     * Builds an {@link LbmConfig}. Each setter rejects a bad value with {@link IllegalArgumentException} and a
     * second call for the same field with {@link IllegalStateException}; {@link #build()} checks that every field
     * is set and that the cylinder fits the channel, and changes nothing. Not thread-safe.
     */
    public static final class Builder {
        private final Set<String> set = new HashSet<>();
        private BlockGrid grid;
        private long steps;
        private double tau = Double.NaN;
        private double velocity = Double.NaN;
        private int radius = -1;
        private Flow flow;

        private Builder() {
        }

        /** The blocks and their cells. */
        public Builder grid(BlockGrid value) {
            once("grid");
            grid = Objects.requireNonNull(value, "grid");
            return this;
        }

        /** The number of time steps, at least 1. */
        public Builder steps(long n) {
            once("steps");
            if (n < 1) {
                throw new IllegalArgumentException("steps must be at least 1, not " + n);
            }
            steps = n;
            return this;
        }

        /** The BGK relaxation time: above 1/2 (else the viscosity is not positive) and at most 2. */
        public Builder tau(double value) {
            once("tau");
            if (!(value > 0.5 && value <= 2.0)) {
                throw new IllegalArgumentException("tau must be above 0.5 and at most 2 (viscosity (tau - 1/2) / 3 > 0), not " + value);
            }
            tau = value;
            return this;
        }

        /** The peak inflow velocity, in (0, 0.2] lattice units. */
        public Builder velocity(double value) {
            once("velocity");
            if (!(value > 0 && value <= 0.2)) {
                throw new IllegalArgumentException("velocity must be above 0 and at most 0.2 lattice units (Mach 0.35), not " + value);
            }
            velocity = value;
            return this;
        }

        /** The cylinder's radius in cells, 0 for none. */
        public Builder radius(int cells) {
            once("radius");
            if (cells < 0) {
                throw new IllegalArgumentException("radius must not be negative, not " + cells);
            }
            radius = cells;
            return this;
        }

        /** The kind of flow. */
        public Builder flow(Flow value) {
            once("flow");
            flow = Objects.requireNonNull(value, "flow");
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalStateException if a field is not set
         * @throws IllegalArgumentException if the cylinder does not fit the channel
         */
        public LbmConfig build() {
            check();
            return new LbmConfig(grid, steps, tau, velocity, radius, flow);
        }

        private void check() {
            // a field never set keeps its impossible initial value
            String missing = grid == null ? "grid" : steps == 0 ? "steps" : Double.isNaN(tau) ? "tau"
                    : Double.isNaN(velocity) ? "velocity" : radius < 0 ? "radius" : flow == null ? "flow" : null;
            if (missing != null) {
                throw new IllegalStateException("lbm configuration: " + missing + " is not set");
            }
            int nx = grid.totalX();
            int ny = grid.totalY();
            // one fluid cell at least between the cylinder and each wall, and the cylinder a fifth of the way in
            if (radius > 0 && (ny / 2.0 + 0.5 + radius > ny - 1 || ny / 2.0 + 0.5 - radius < 1 || nx / 5.0 - radius < 1)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "a cylinder of radius %d at (%.1f, %.1f) does not fit a "
                        + "channel of %d x %d cells with a fluid cell to spare on every side: use a smaller radius or more cells",
                        radius, nx / 5.0, ny / 2.0 + 0.5, nx, ny));
            }
        }

        private void once(String field) {
            if (!set.add(field)) {
                throw new IllegalStateException("lbm configuration: " + field + " is set twice");
            }
        }
    }
}
