package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockGrid;
import io.ironloop.examples.blocks.BlockExample;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.StepContext;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * 2-D heat conduction to a steady state by Jacobi iteration on a grid of {@link HeatBlock}s: each step
 * exchanges the blocks' face halos, then relaxes every block. The domain's north edge is held at the hot
 * temperature and the other edges at the cold one, so the field warms from the north towards the solution of
 * Laplace's equation (on a square domain its mean is {@code cold + (hot − cold) / 4}).
 *
 * <p>Partitioning: a {@link Grid2D} of {@code blocksX × blocksY} blocks, not periodic; the loop assigns blocks
 * to ranks and moves them after a loss. Every cell's update reads only its block and the halo, so the result
 * is the same bits on any number of ranks and after any recovery.
 */
public final class HeatBlocks implements BlockExample<HeatBlock> {
    private final HeatBlocksConfig config;
    private final Grid2D grid;

    /** The example for {@code config}. */
    public HeatBlocks(HeatBlocksConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.grid = config.grid().layout(false);
    }

    /** The example of the preset {@code size} ({@code test}, {@code demo} or {@code bench}), with {@code steps} if positive. */
    public static HeatBlocks preset(String size, long steps) {
        return new HeatBlocks(config(size, steps, 0));
    }

    /** The example a rank or reference program's options select: the preset, its steps and cells per block edge if given. */
    public static HeatBlocks of(io.ironloop.examples.blocks.BlockRankOptions options) {
        return new HeatBlocks(config(options.size(), options.steps().orElse(0), options.cells().orElse(0)));
    }

    private static HeatBlocksConfig config(String size, long steps, int cells) {
        HeatBlocksConfig c = switch (size) {
            case "test" -> HeatBlocksConfig.test();
            case "demo" -> HeatBlocksConfig.demo();
            case "bench" -> HeatBlocksConfig.bench();
            default -> throw new IllegalArgumentException("size must be test, demo or bench, not '" + size + "'");
        };
        HeatBlocksConfig.Builder b = HeatBlocksConfig.builder().temperatures(c.hot(), c.cold()).steps(steps > 0 ? steps : c.steps());
        BlockGrid g = c.grid();
        return b.grid(cells > 0 ? new BlockGrid(g.blocksX(), g.blocksY(), cells, cells) : g).build();
    }

    /** The configuration. */
    public HeatBlocksConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "heat";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "2-D heat (Jacobi), %s, %d steps", config.grid().describe(), config.steps());
    }

    @Override
    public BlockLayout layout() {
        return grid;
    }

    @Override
    public HeatBlock create(int id) {
        return new HeatBlock(id, grid, config);
    }

    @Override
    public long steps() {
        return config.steps();
    }

    @Override
    public void step(StepContext<HeatBlock> context) {
        context.exchangeHalos();
        for (HeatBlock b : context.blocks()) {
            b.relax();
        }
    }

    @Override
    public Map<String, String> settings() {
        return config.settings();
    }

    @Override
    public String summary(Sums<HeatBlock> sums) {
        double cells = (double) config.grid().totalX() * config.grid().totalY();
        return String.format(Locale.ROOT, "mean temperature %.6f", sums.sum(HeatBlock::total) / cells);
    }
}
