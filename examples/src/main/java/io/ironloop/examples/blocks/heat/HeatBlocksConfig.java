package io.ironloop.examples.blocks.heat;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The settings of a 2-D heat run on blocks: a {@code blocksX × blocksY} grid of blocks of
 * {@code cellsX × cellsY} cells each, the number of Jacobi steps, and the fixed temperatures of the domain's
 * edges (the north edge {@code hot}, the three others {@code cold}). The field starts at {@code cold}.
 *
 * <p>Two presets: {@link #test()} (a complete run in a fraction of a second) and {@link #demo()}. Two runs end
 * bit-identical exactly when their configurations are equal, whatever the number of ranks.
 *
 * @param blocksX blocks along x, at least 1
 * @param blocksY blocks along y, at least 1
 * @param cellsX cells of a block along x, at least 1
 * @param cellsY cells of a block along y, at least 1
 * @param steps Jacobi steps of a complete run, at least 1
 * @param hot the temperature of the north edge, finite
 * @param cold the temperature of the other edges and the initial field, finite
 */
public record HeatBlocksConfig(int blocksX, int blocksY, int cellsX, int cellsY, long steps, double hot, double cold) {
    /** The largest number of cells of one block with its halo, so that a block's arrays stay small. */
    static final int MAX_BLOCK_CELLS = 1 << 24;

    /** Checks every rule; see {@link Builder}. */
    public HeatBlocksConfig {
        new Builder().blocks(blocksX, blocksY).cells(cellsX, cellsY).steps(steps).temperatures(hot, cold).check();
    }

    /** The test size: 4 × 4 blocks of 16 × 16 cells (64 × 64), 200 steps. */
    public static HeatBlocksConfig test() {
        return new HeatBlocksConfig(4, 4, 16, 16, 200, 1.0, 0.0);
    }

    /** The demo size: 8 × 8 blocks of 64 × 64 cells (512 × 512), 1000 steps. */
    public static HeatBlocksConfig demo() {
        return new HeatBlocksConfig(8, 8, 64, 64, 1000, 1.0, 0.0);
    }

    /** A builder with no field set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this configuration; each field may be set once more. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.blocksX = blocksX;
        b.blocksY = blocksY;
        b.cellsX = cellsX;
        b.cellsY = cellsY;
        b.steps = steps;
        b.hot = hot;
        b.cold = cold;
        return b;
    }

    /** Cells of the whole domain along x. */
    public int totalX() {
        return blocksX * cellsX;
    }

    /** Cells of the whole domain along y. */
    public int totalY() {
        return blocksY * cellsY;
    }

    /** The settings as ordered name/value strings, fingerprinted into the run's disk lines. */
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("app", "heat-blocks");
        m.put("blocks", blocksX + "x" + blocksY);
        m.put("cells", cellsX + "x" + cellsY);
        m.put("steps", Long.toString(steps));
        m.put("hot", Double.toString(hot));
        m.put("cold", Double.toString(cold));
        return m;
    }

    /**
     * Builds a {@link HeatBlocksConfig}. Each setter rejects a bad value with {@link IllegalArgumentException}
     * and a second call for the same field with {@link IllegalStateException}; {@link #build()} checks that
     * every field is set and the rules between fields, and changes nothing. Not thread-safe.
     */
    public static final class Builder {
        private final Set<String> set = new HashSet<>();
        private int blocksX;
        private int blocksY;
        private int cellsX;
        private int cellsY;
        private long steps;
        private double hot = Double.NaN;
        private double cold = Double.NaN;

        private Builder() {
        }

        /** The grid of blocks, at least 1 × 1, at most 2^20 blocks. */
        public Builder blocks(int x, int y) {
            once("blocks");
            if (x < 1 || y < 1 || (long) x * y > 1 << 20) {
                throw new IllegalArgumentException("blocks must be at least 1 x 1 and at most 2^20 in all, not " + x + " x " + y);
            }
            blocksX = x;
            blocksY = y;
            return this;
        }

        /** The cells of one block, at least 1 × 1, with its halo at most 2^24. */
        public Builder cells(int x, int y) {
            once("cells");
            if (x < 1 || y < 1 || (long) (x + 2) * (y + 2) > MAX_BLOCK_CELLS) {
                throw new IllegalArgumentException("cells per block must be at least 1 x 1 and, with a one-cell halo, at most 2^24, not "
                        + x + " x " + y);
            }
            cellsX = x;
            cellsY = y;
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
         * @throws IllegalArgumentException if the domain has more than 2^31 - 1 cells along an axis
         */
        public HeatBlocksConfig build() {
            check();
            return new HeatBlocksConfig(blocksX, blocksY, cellsX, cellsY, steps, hot, cold);
        }

        private void check() {
            // a field never set keeps its impossible initial value
            String missing = blocksX == 0 ? "blocks" : cellsX == 0 ? "cells" : steps == 0 ? "steps" : Double.isNaN(hot) ? "temperatures" : null;
            if (missing != null) {
                throw new IllegalStateException("heat configuration: " + missing + " is not set");
            }
            if ((long) blocksX * cellsX > Integer.MAX_VALUE || (long) blocksY * cellsY > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("the domain of " + blocksX + " x " + blocksY + " blocks of " + cellsX + " x " + cellsY
                        + " cells has more than 2^31 - 1 cells along an axis");
            }
        }

        private void once(String field) {
            if (!set.add(field)) {
                throw new IllegalStateException("heat configuration: " + field + " is set twice");
            }
        }
    }
}
