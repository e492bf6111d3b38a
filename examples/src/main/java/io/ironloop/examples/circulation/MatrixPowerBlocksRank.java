package io.ironloop.examples.circulation;

import io.ironloop.examples.blocks.BlockRankMain;

/**
 * One rank of the hand-written matrix power: {@code ironloop run -n N --params FILE --
 * io.ironloop.examples.circulation.MatrixPowerBlocksRank [test|demo] [--steps N] [--pace-ms MS]}; prints the same
 * {@code result sha256=} as {@link MatrixPowerSkeletonRank}.
 */
public final class MatrixPowerBlocksRank {
    private MatrixPowerBlocksRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS] [--die-at ...]}
     */
    public static void main(String[] args) {
        BlockRankMain.main("MatrixPowerBlocksRank", args, o -> new MatrixPowerBlocks(MatrixPower.preset(o.size(), o.steps().orElse(0))));
    }
}
