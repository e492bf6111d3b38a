package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockRankMain;

/**
 * One rank of the fault-tolerant lattice-Boltzmann example: {@code ironloop run -n N [--spares S] --
 * io.ironloop.examples.blocks.lbm.LbmRank [test|demo] [--steps N] [--pace-ms MS]}. Rank 0 prints
 * {@code result sha256=<hex>}, the same as {@link LbmMain} for the same options, on any number of ranks and
 * however many ranks died on the way. Exit status as {@link BlockRankMain}.
 */
public final class LbmRank {
    private LbmRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS]}
     */
    public static void main(String[] args) {
        BlockRankMain.main("LbmRank", args, o -> {
            o.refuseCells("lbm");
            return CylinderFlow.preset(o.size(), o.steps().orElse(0));
        });
    }
}
