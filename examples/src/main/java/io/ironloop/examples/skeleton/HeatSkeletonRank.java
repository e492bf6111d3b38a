package io.ironloop.examples.skeleton;

import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;

/**
 * One rank of the heat example on the skeleton: {@code ironloop run -n N -- io.ironloop.examples.skeleton.HeatSkeletonRank
 * [test|demo] [--steps N] [--pace-ms MS]} on 1 to {@link HeatSkeleton#PARTS} ranks, through {@link SkeletonRankMain}
 * like the other skeleton examples. Checkpoints hold the output domain only; a job stopped and resumed with another
 * {@code -n} over the same {@code FT_FOLDER} prints the same {@code result sha256=} line (the field's rows, {@link
 * io.ironloop.examples.RowDigest}). Exit status: 0 done, 1 the job cannot go on here (a relaunch resumes from disk), 2
 * usage or configuration error.
 */
public final class HeatSkeletonRank {
    private HeatSkeletonRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS] [--die-at ...]}
     */
    public static void main(String[] args) {
        SkeletonRankMain.main("HeatSkeletonRank", args, o -> new HeatSkeleton(HeatBlocks.of(o).config()));
    }

    /** The failure-free result of {@code config} in this JVM (one rank, no disk): what every rank program must print. */
    public static String reference(HeatBlocksConfig config) {
        return SkeletonRankMain.reference(new HeatSkeleton(config));
    }
}
