package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockGrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.InJvmBlockRuns;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeatBlocksTest {
    /** Small and uneven on purpose: 3 × 2 blocks of 5 × 4 cells, so blocks, ranks and edges do not line up. */
    private static final HeatBlocksConfig SMALL = new HeatBlocksConfig(new BlockGrid(3, 2, 5, 4), 40, 1.0, 0.0);

    @TempDir
    Path dir;

    @Test
    void run_crashOfOneRankMidRun_sameDigestAsFailureFreeOneAndThreeRanks() throws Exception {
        HeatBlocks heat = new HeatBlocks(SMALL);
        String reference = BlockReference.run(heat).digest();

        List<String> clean = InJvmBlockRuns.run(heat, 4, 4, InJvmBlockRuns.NONE, -1, dir.resolve("clean"));
        List<String> crashed = InJvmBlockRuns.run(heat, 4, 4, 2, 17, dir.resolve("crashed"));
        List<String> three = InJvmBlockRuns.run(heat, 3, 7, InJvmBlockRuns.NONE, -1, dir.resolve("three"));
        List<String> one = InJvmBlockRuns.run(heat, 1, 5, InJvmBlockRuns.NONE, -1, dir.resolve("one"));

        String expected = clean.get(0);
        assertThat(expected).startsWith(reference + " ").endsWith("recoveries=0");
        assertThat(clean).containsOnly(expected);
        String recovered = expected.replace("recoveries=0", "recoveries=1");
        assertThat(crashed).containsExactly(recovered, recovered, "crashed", recovered);
        assertThat(three).containsOnly(expected);
        assertThat(one).containsOnly(expected);
    }

    @Test
    void run_manySteps_approachesTheSteadyMeanAndStaysWithinTheEdgeTemperatures() {
        // a square domain: the steady mean is a quarter of the way from cold to hot (four rotated problems add to hot)
        HeatBlocksConfig c = new HeatBlocksConfig(new BlockGrid(2, 2, 8, 8), 3000, 2.0, -1.0);
        double[] mean = new double[3];
        InJvmBlockRuns.onOneRank(new HeatBlocks(c), loop -> {
            double cells = 16.0 * 16.0;
            loop.run(10, step -> new HeatBlocks(c).step(step));
            mean[0] = loop.sum(HeatBlock::total) / cells;
            loop.run(100, step -> new HeatBlocks(c).step(step));
            mean[1] = loop.sum(HeatBlock::total) / cells;
            loop.run(3000, step -> new HeatBlocks(c).step(step));
            mean[2] = loop.sum(HeatBlock::total) / cells;
            for (HeatBlock b : loop.blocks()) {
                assertThat(b.minimum()).isGreaterThanOrEqualTo(-1.0);
                assertThat(b.maximum()).isLessThanOrEqualTo(2.0);
            }
        });
        assertThat(mean[0]).isGreaterThan(-1.0).isLessThan(mean[1]);
        assertThat(mean[1]).isLessThan(mean[2]);
        // exact on the discrete grid too: the four rotations of the problem are alike and add up to a uniform hot field
        assertThat(mean[2]).isCloseTo(-0.25, within(1e-9));
    }

    @Test
    void step_heatChangeEqualsAQuarterOfTheInflowThroughTheEdges() {
        HeatBlocks heat = new HeatBlocks(new HeatBlocksConfig(new BlockGrid(3, 2, 6, 5), 1, 1.0, 0.0));
        InJvmBlockRuns.onOneRank(heat, loop -> loop.run(25, step -> {
            step.exchangeHalos();
            double before = step.sum(HeatBlock::total);
            double inflow = step.sum(HeatBlock::edgeInflow);
            step.blocks().forEach(HeatBlock::relax);
            double after = step.sum(HeatBlock::total);
            assertThat(after - before).isCloseTo(0.25 * inflow, within(1e-12));
            assertThat(inflow).isPositive();
        }));
    }

    @Test
    void describe_namesTheDomainAndTheBlocks() {
        assertThat(new HeatBlocks(HeatBlocksConfig.demo()).describe()).contains("512 x 512 cells in 8 x 8 blocks of 64 x 64");
    }
}
