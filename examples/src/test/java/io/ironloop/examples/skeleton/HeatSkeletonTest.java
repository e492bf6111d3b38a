package io.ironloop.examples.skeleton;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.core.StateSink;
import io.ironloop.examples.blocks.BlockGrid;
import io.ironloop.examples.blocks.heat.HeatBlock;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Skeleton;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The heat example on the skeleton against its hand-written block version: the same field, bit for bit, in fewer lines. */
class HeatSkeletonTest {
    private static final HeatBlocksConfig CONFIG = HeatBlocksConfig.test().toBuilder().steps(60).build();

    /** The interior of the hand-written version's field, {@code [y][x]} from 0. */
    private static double[][] handWritten() {
        HeatBlocks example = new HeatBlocks(CONFIG);
        BlockGrid g = CONFIG.grid();
        double[][] field = new double[g.totalY()][g.totalX()];
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("heat-hand", 1);
                BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).parameters(p)
                        .group(cluster.group(0)).start()) {
            loop.run(example.steps(), example::step);
            for (HeatBlock b : loop.blocks()) {
                double[] u = fieldOf(b);
                int bx = b.id() % g.blocksX();
                int by = b.id() / g.blocksX();
                for (int y = 1; y <= g.cellsY(); y++) {
                    for (int x = 1; x <= g.cellsX(); x++) {
                        field[by * g.cellsY() + y - 1][bx * g.cellsX() + x - 1] = u[y * (g.cellsX() + 2) + x];
                    }
                }
            }
        }
        return field;
    }

    /** What a heat block saves: its field with the halo, row-major. */
    private static double[] fieldOf(HeatBlock block) {
        double[][] saved = new double[1][];
        block.save(new StateSink() {
            @Override
            public void putLong(long v) {
            }

            @Override
            public void putDouble(double v) {
            }

            @Override
            public void putInt(int v) {
            }

            @Override
            public void putLongs(long[] values) {
            }

            @Override
            public void putDoubles(double[] values) {
                saved[0] = values.clone();
            }

            @Override
            public void putInts(int[] values) {
            }

            @Override
            public void putBytes(ByteBuffer bytes) {
            }
        });
        return saved[0];
    }

    @Test
    void skeletonVersion_sameFieldAsTheHandWrittenBlocks_bitForBit() {
        double[][] expected = handWritten();
        HeatSkeleton heat = new HeatSkeleton(CONFIG);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("heat-skel", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                        .parameters(p).group(cluster.group(0)).start()) {
            skeleton.run();
            int cells = 0;
            for (Map.Entry<Integer, Domain2D> e : skeleton.domains().entrySet()) {
                var possessed = heat.partition().possessed(e.getKey(), HeatSkeleton.PARTS, CONFIG.steps() - 1);
                for (int y = Math.max(1, possessed.lo(0)); y < Math.min(CONFIG.grid().totalY() + 1, possessed.hi(0)); y++) {
                    for (int x = 1; x <= CONFIG.grid().totalX(); x++) {
                        assertThat(Double.doubleToRawLongBits(e.getValue().get(y, x))).as("cell (%d, %d)", y, x)
                                .isEqualTo(Double.doubleToRawLongBits(expected[y - 1][x - 1]));
                        cells++;
                    }
                }
            }
            assertThat(cells).isEqualTo(CONFIG.grid().totalX() * CONFIG.grid().totalY());
            assertThat(expected[CONFIG.grid().totalY() - 1][CONFIG.grid().totalX() / 2]).as("heat came in").isGreaterThan(0.1);
        }
    }
}
