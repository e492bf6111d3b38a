package io.ironloop.examples.circulation;

import io.ironloop.examples.skeleton.SkeletonRankMain;

/**
 * One rank of the matrix power on the skeleton (data circulation): {@code ironloop run -n N --params FILE --
 * io.ironloop.examples.circulation.MatrixPowerSkeletonRank [test|demo] [--steps N] [--pace-ms MS]} on 1 to 8 ranks.
 * Prints the same {@code result sha256=} as {@link MatrixPowerBlocksRank}, also after a stop and a restart on another
 * number of ranks.
 */
public final class MatrixPowerSkeletonRank {
    private MatrixPowerSkeletonRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS] [--die-at ...]}
     */
    public static void main(String[] args) {
        SkeletonRankMain.main("MatrixPowerSkeletonRank", args, o -> new MatrixPowerSkeleton(MatrixPower.preset(o.size(), o.steps().orElse(0))));
    }
}
