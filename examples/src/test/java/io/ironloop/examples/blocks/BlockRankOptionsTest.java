package io.ironloop.examples.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import org.junit.jupiter.api.Test;

class BlockRankOptionsTest {
    @Test
    void benchSize_isTheHeatBenchPreset_andCellsReplaceThePresetsBlockEdge() {
        assertThat(HeatBlocks.of(BlockRankOptions.parse("bench")).config()).isEqualTo(HeatBlocksConfig.bench());
        HeatBlocksConfig small = HeatBlocks.of(BlockRankOptions.parse("bench", "--cells", "32", "--steps", "3")).config();
        assertThat(small.grid()).isEqualTo(new BlockGrid(8, 8, 32, 32));
        assertThat(small.steps()).isEqualTo(3);
        assertThat(HeatBlocks.of(BlockRankOptions.parse()).config()).as("no arguments: the demo").isEqualTo(HeatBlocksConfig.demo());
    }

    @Test
    void cells_refusedWhereTheExampleFixesItsBlocks_andWhenNotPositive() {
        BlockRankOptions withCells = BlockRankOptions.parse("--cells", "64");
        assertThatThrownBy(() -> withCells.refuseCells("lbm")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--cells applies to the heat example only");
        assertThatThrownBy(() -> BlockRankOptions.parse("--cells", "0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--cells must be at least 1");
        assertThatThrownBy(() -> BlockRankOptions.parse("huge")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown argument 'huge'");
    }
}
