package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockGrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.InJvmBlockRuns;
import io.ironloop.runtime.blocks.BlockLoop;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CylinderFlowTest {
    /** Small and uneven on purpose: 3 × 2 blocks of 6 × 5 cells (18 × 10), a cylinder of radius 2. */
    private static final LbmConfig SMALL = new LbmConfig(new BlockGrid(3, 2, 6, 5), 40, 0.6, 0.1, 2, LbmConfig.Flow.CHANNEL);

    @TempDir
    Path dir;

    @Test
    void run_crashOfOneRankMidRun_sameDigestAsFailureFreeOneAndThreeRanks() throws Exception {
        CylinderFlow flow = new CylinderFlow(SMALL);
        String reference = BlockReference.run(flow).digest();

        List<String> clean = InJvmBlockRuns.run(flow, 4, 4, InJvmBlockRuns.NONE, -1, dir.resolve("clean"));
        List<String> crashed = InJvmBlockRuns.run(flow, 4, 4, 1, 23, dir.resolve("crashed"));
        List<String> three = InJvmBlockRuns.run(flow, 3, 6, InJvmBlockRuns.NONE, -1, dir.resolve("three"));
        List<String> one = InJvmBlockRuns.run(flow, 1, 5, InJvmBlockRuns.NONE, -1, dir.resolve("one"));

        String expected = clean.get(0);
        assertThat(expected).startsWith(reference + " ").endsWith("recoveries=0");
        assertThat(clean).containsOnly(expected);
        String recovered = expected.replace("recoveries=0", "recoveries=1");
        assertThat(crashed).containsExactly(recovered, "crashed", recovered, recovered);
        assertThat(three).containsOnly(expected);
        assertThat(one).containsOnly(expected);
    }

    /** Halos (corners included), inflow, outflow and periodic ends are right only if cutting the channel changes no bit. */
    @ParameterizedTest
    @EnumSource(LbmConfig.Flow.class)
    void run_channelCutIntoBlocksOrNot_sameVelocityInEveryCell(LbmConfig.Flow kind) {
        LbmConfig cut = new LbmConfig(new BlockGrid(3, 2, 6, 5), 60, 0.6, 0.1, 2, kind);
        LbmConfig whole = cut.toBuilder().grid(new BlockGrid(1, 1, 18, 10)).build();
        double[][] a = velocities(new CylinderFlow(cut));
        double[][] b = velocities(new CylinderFlow(whole));
        assertThat(a).isDeepEqualTo(b);
    }

    @Test
    void run_periodicChannel_massConservedToRoundOff() {
        CylinderFlow flow = new CylinderFlow(new LbmConfig(new BlockGrid(4, 2, 10, 8), 1, 0.55, 0.1, 3, LbmConfig.Flow.PERIODIC));
        double[] mass = new double[2];
        InJvmBlockRuns.onOneRank(flow, loop -> {
            mass[0] = loop.sum(LbmBlock::mass);
            loop.run(500, flow::step);
            mass[1] = loop.sum(LbmBlock::mass);
        });
        assertThat(mass[1]).isCloseTo(mass[0], within(mass[0] * 1e-12));
    }

    @Test
    void run_channel_flowStaysFiniteAndSlowsBehindTheCylinder() {
        LbmConfig c = LbmConfig.test().toBuilder().steps(800).build();
        CylinderFlow flow = new CylinderFlow(c);
        InJvmBlockRuns.onOneRank(flow, loop -> {
            loop.run(c.steps(), flow::step);
            double max = 0;
            for (int gx = 0; gx < c.grid().totalX(); gx++) {
                for (int gy = 0; gy < c.grid().totalY(); gy++) {
                    double[] u = velocity(loop, gx, gy);
                    assertThat(Double.isFinite(u[0]) && Double.isFinite(u[1])).as("velocity at (%d, %d) is finite", gx, gy).isTrue();
                    max = Math.max(max, Math.hypot(u[0], u[1]));
                }
            }
            assertThat(max).isLessThan(0.2).isGreaterThan(0.09);
            int cy = (int) c.cylinderY();
            int behind = (int) (c.cylinderX() + c.radius()) + 1;
            int upstream = 2;
            double inflow = velocity(loop, upstream, cy)[0];
            assertThat(inflow).isCloseTo(c.velocity(), within(0.02));
            assertThat(velocity(loop, behind, cy)[0]).isLessThan(0.3 * inflow);
            // the flow goes round the cylinder: faster beside it than upstream on the same line
            assertThat(velocity(loop, (int) c.cylinderX(), cy + c.radius() + 2)[0]).isGreaterThan(velocity(loop, upstream,
                    cy + c.radius() + 2)[0]);
            double density = loop.sum(LbmBlock::mass) / loop.sum(LbmBlock::fluidCells);
            // pressure drives the flow: Poiseuille's gradient 8 ν U / H² over the channel's length is a density drop of
            // 3 × 64 × 8 × (1/30) × 0.1 / 32² ≈ 0.05 (the cylinder adds to it), so the mean is about half that above 1
            assertThat(density).isCloseTo(1.0, within(0.05));
        });
    }

    private static double[][] velocities(CylinderFlow flow) {
        LbmConfig c = flow.config();
        double[][] u = new double[c.grid().totalX() * c.grid().totalY()][];
        InJvmBlockRuns.onOneRank(flow, loop -> {
            loop.run(c.steps(), flow::step);
            for (int gx = 0; gx < c.grid().totalX(); gx++) {
                for (int gy = 0; gy < c.grid().totalY(); gy++) {
                    u[gy * c.grid().totalX() + gx] = velocity(loop, gx, gy);
                }
            }
        });
        return u;
    }

    private static double[] velocity(BlockLoop<LbmBlock> loop, int gx, int gy) {
        return loop.blocks().stream().filter(b -> b.contains(gx, gy)).findFirst().orElseThrow().velocity(gx, gy);
    }
}
