package io.ironloop.examples.swing;

import io.ironloop.examples.blocks.BlockRankMain;

/**
 * One rank of the hand-written gas-storage valuation: {@code ironloop run -n N --params FILE --
 * io.ironloop.examples.swing.GasStorageBlocksRank [test|demo] [--steps N] [--pace-ms MS]}; prints the same
 * {@code result sha256=} as {@link GasStorageSkeletonRank}.
 */
public final class GasStorageBlocksRank {
    private GasStorageBlocksRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS] [--die-at ...]}
     */
    public static void main(String[] args) {
        BlockRankMain.main("GasStorageBlocksRank", args, o -> new GasStorageBlocks(GasStorage.preset(o.size(), o.steps().orElse(0))));
    }
}
