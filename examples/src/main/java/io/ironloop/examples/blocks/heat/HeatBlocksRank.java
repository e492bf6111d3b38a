package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockRankMain;

/**
 * One rank of the fault-tolerant 2-D heat example: {@code ironloop run -n N [--spares S] --
 * io.ironloop.examples.blocks.heat.HeatBlocksRank [test|demo|bench] [--steps N] [--cells N] [--pace-ms MS]}. Rank 0 prints
 * {@code result sha256=<hex>}, the same as {@link HeatBlocksMain} for the same options, on any number of ranks
 * and however many ranks died on the way. Exit status as {@link BlockRankMain}.
 */
public final class HeatBlocksRank {
    private HeatBlocksRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo|bench] [--steps N] [--cells N] [--pace-ms MS]}
     */
    public static void main(String[] args) {
        BlockRankMain.main("HeatBlocksRank", args, HeatBlocks::of);
    }
}
