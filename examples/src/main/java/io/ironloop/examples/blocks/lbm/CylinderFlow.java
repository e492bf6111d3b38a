package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockExample;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.blocks.StepContext;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Laminar flow past a cylinder in a 2-D channel, by the D2Q9 lattice-Boltzmann method with BGK collision on a
 * grid of {@link LbmBlock}s — the waLBerla paper's LBM case. Each step exchanges the distributions that cross
 * block edges with all eight neighbours (corners included: the diagonal velocities cross them), then streams
 * and collides every block. Walls (south and north) and the cylinder reflect by half-way bounce-back; the west
 * end lets in a parabolic profile at equilibrium, the east end lets the flow out with zero gradient
 * ({@link LbmConfig.Flow#CHANNEL}); or the ends are joined ({@link LbmConfig.Flow#PERIODIC}).
 *
 * <p>Partitioning: a {@link Grid2D} of {@code blocksX × blocksY} blocks, periodic in x for a periodic flow. The
 * result is the same bits on any number of ranks and after any recovery.
 */
public final class CylinderFlow implements BlockExample<LbmBlock> {
    private final LbmConfig config;
    private final Grid2D grid;

    /** The example for {@code config}. */
    public CylinderFlow(LbmConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.grid = config.grid().layout(config.flow() == LbmConfig.Flow.PERIODIC);
    }

    /** The example of the preset {@code size} ({@code test} or {@code demo}), with {@code steps} if positive. */
    public static CylinderFlow preset(String size, long steps) {
        LbmConfig c = switch (size) {
            case "test" -> LbmConfig.test();
            case "demo" -> LbmConfig.demo();
            default -> throw new IllegalArgumentException("size must be test or demo, not '" + size + "'");
        };
        return new CylinderFlow(steps > 0 ? c.toBuilder().steps(steps).build() : c);
    }

    /** The configuration. */
    public LbmConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "lbm";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "D2Q9 flow past a cylinder (%s, radius %d, Re %.0f, tau %s, peak velocity %s), %s, %d steps",
                config.flow().name().toLowerCase(Locale.ROOT), config.radius(), config.reynolds(), config.tau(), config.velocity(),
                config.grid().describe(), config.steps());
    }

    @Override
    public BlockLayout layout() {
        return grid;
    }

    @Override
    public LbmBlock create(int id) {
        return new LbmBlock(id, grid, config);
    }

    @Override
    public long steps() {
        return config.steps();
    }

    @Override
    public void step(StepContext<LbmBlock> context) {
        context.exchangeHalos();
        for (LbmBlock b : context.blocks()) {
            b.update();
        }
    }

    @Override
    public Map<String, String> settings() {
        return config.settings();
    }

    @Override
    public String summary(Sums<LbmBlock> sums) {
        double mass = sums.sum(LbmBlock::mass);
        double fluid = sums.sum(LbmBlock::fluidCells);
        return String.format(Locale.ROOT, "mean density %.9f, mean velocity %.6f", mass / fluid, sums.sum(LbmBlock::momentumX) / mass);
    }
}
