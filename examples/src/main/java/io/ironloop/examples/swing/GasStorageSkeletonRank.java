package io.ironloop.examples.swing;

import io.ironloop.examples.skeleton.SkeletonRankMain;

/**
 * One rank of the gas-storage valuation on the skeleton: {@code ironloop run -n N --params FILE --
 * io.ironloop.examples.swing.GasStorageSkeletonRank [test|demo] [--steps N] [--pace-ms MS]} on 1 to 8 ranks. Prints
 * the same {@code result sha256=} as {@link GasStorageBlocksRank}, also after a stop and a restart on another number
 * of ranks.
 */
public final class GasStorageSkeletonRank {
    private GasStorageSkeletonRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS] [--die-at ...]}
     */
    public static void main(String[] args) {
        SkeletonRankMain.main("GasStorageSkeletonRank", args, o -> new GasStorageSkeleton(GasStorage.preset(o.size(), o.steps().orElse(0))));
    }
}
