package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockGrid;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings of a 2-D heat run on blocks: the grid of blocks and cells, the number of Jacobi steps, and the
 * fixed temperatures of the domain's edges (the north edge {@code hot}, the three others {@code cold}). The
 * field starts at {@code cold}.
 *
 * <p>Three presets: {@link #test()} (a complete run in a fraction of a second), {@link #demo()} and {@link #bench()}. Two runs end
 * bit-identical exactly when their configurations are equal, whatever the number of ranks.
 *
 * @param grid the blocks and their cells
 * @param steps Jacobi steps of a complete run, at least 1
 * @param hot the temperature of the north edge, finite
 * @param cold the temperature of the other edges and the initial field, finite
 */
public record HeatBlocksConfig(BlockGrid grid, long steps, double hot, double cold) {
    /** Checks every rule; see {@link Builder}. */
    public HeatBlocksConfig {
        new Builder().grid(grid).steps(steps).temperatures(hot, cold).check();
    }

    /** The test size: 4 × 4 blocks of 16 × 16 cells (64 × 64), 200 steps. */
    public static HeatBlocksConfig test() {
        return new HeatBlocksConfig(new BlockGrid(4, 4, 16, 16), 200, 1.0, 0.0);
    }

    /** The demo size: 8 × 8 blocks of 64 × 64 cells (512 × 512), 1000 steps. */
    public static HeatBlocksConfig demo() {
        return new HeatBlocksConfig(new BlockGrid(8, 8, 64, 64), 1000, 1.0, 0.0);
    }

    /**
     * The bench size: 8 × 8 blocks of 1024 × 1024 cells (8192 × 8192, 64 Mi cells: 16 Mi cells, 128 MiB of state per
     * rank on 4 ranks), 30 steps. An iteration takes about 100 ms or more per rank on a 2-core machine running 4 ranks,
     * the size of the iterations of waLBerla's measurements, so that {@code ironloop bench overhead --app heat} weighs a
     * snapshot against an iteration of realistic size rather than against the demo's 3 ms.
     */
    public static HeatBlocksConfig bench() {
        return new HeatBlocksConfig(new BlockGrid(8, 8, 1024, 1024), 30, 1.0, 0.0);
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
        b.hot = hot;
        b.cold = cold;
        return b;
    }

    /** The settings as ordered name/value strings, fingerprinted into the run's disk lines. */
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("app", "heat-blocks");
        m.put("blocks", grid.blocksX() + "x" + grid.blocksY());
        m.put("cells", grid.cellsX() + "x" + grid.cellsY());
        m.put("steps", Long.toString(steps));
        m.put("hot", Double.toString(hot));
        m.put("cold", Double.toString(cold));
        return m;
    }

    /**
     * Builds a {@link HeatBlocksConfig}. Each setter rejects a bad value with {@link IllegalArgumentException}
     * and a second call for the same field with {@link IllegalStateException}; {@link #build()} checks that
     * every field is set, and changes nothing. Not thread-safe.
     */
    public static final class Builder {
        private final Set<String> set = new HashSet<>();
        private BlockGrid grid;
        private long steps;
        private double hot = Double.NaN;
        private double cold = Double.NaN;

        private Builder() {
        }

        /** The blocks and their cells. */
        public Builder grid(BlockGrid value) {
            once("grid");
            grid = Objects.requireNonNull(value, "grid");
            return this;
        }

        /** The number of Jacobi steps, at least 1. */
        public Builder steps(long n) {
            once("steps");
            if (n < 1) {
                throw new IllegalArgumentException("steps must be at least 1, not " + n);
            }
            steps = n;
            return this;
        }

        /** The north edge's temperature and the other edges' (also the initial field's), both finite. */
        public Builder temperatures(double hotEdge, double coldEdges) {
            once("temperatures");
            if (!Double.isFinite(hotEdge) || !Double.isFinite(coldEdges)) {
                throw new IllegalArgumentException("temperatures must be finite, not hot " + hotEdge + ", cold " + coldEdges);
            }
            hot = hotEdge;
            cold = coldEdges;
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalStateException if a field is not set
         */
        public HeatBlocksConfig build() {
            check();
            return new HeatBlocksConfig(grid, steps, hot, cold);
        }

        private void check() {
            // a field never set keeps its impossible initial value
            String missing = grid == null ? "grid" : steps == 0 ? "steps" : Double.isNaN(hot) ? "temperatures" : null;
            if (missing != null) {
                throw new IllegalStateException("heat configuration: " + missing + " is not set");
            }
        }

        private void once(String field) {
            if (!set.add(field)) {
                throw new IllegalStateException("heat configuration: " + field + " is set twice");
            }
        }
    }
}
