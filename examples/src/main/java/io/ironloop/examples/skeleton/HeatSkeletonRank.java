package io.ironloop.examples.skeleton;

import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.blocks.BlockRankOptions;
import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Skeleton;

/**
 * One rank of the heat example on the skeleton: {@code ironloop run -n N -- io.ironloop.examples.skeleton.HeatSkeletonRank
 * [test|demo] [--steps N] [--pace-ms MS]} on 1 to {@link HeatSkeleton#PARTS} ranks. Checkpoints hold the output
 * domain only; a job stopped and resumed with another {@code -n} over the same {@code FT_FOLDER} prints the same
 * {@code result sha256=} line. Exit status: 0 done, 1 the job cannot go on here (a relaunch resumes from disk), 2
 * usage or configuration error.
 */
public final class HeatSkeletonRank {
    private HeatSkeletonRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--steps N] [--pace-ms MS]}
     */
    public static void main(String[] args) {
        BlockRankOptions o;
        try {
            o = BlockRankOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("HeatSkeletonRank: " + e.getMessage() + "\nusage: HeatSkeletonRank " + BlockRankOptions.USAGE);
            System.exit(2);
            return;
        }
        HeatSkeleton heat = new HeatSkeleton(HeatBlocks.preset(o.size(), o.steps().orElse(0)).config(), o.paceMillis());
        try (Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                .checkpointInput(false).settings(heat.settings()).start()) {
            skeleton.run();
            String digest = skeleton.digest();
            if (skeleton.group().rank() == 0) {
                System.out.println(ResultDigest.LINE_PREFIX + digest);
            }
        } catch (io.ironloop.ConfigurationException e) {
            System.err.println("HeatSkeletonRank: " + e.getMessage());
            System.exit(2);
        } catch (io.ironloop.IronloopException e) {
            System.err.println("HeatSkeletonRank: cannot go on inside the job (" + e.getMessage() + "); a relaunch resumes from disk");
            System.exit(1);
        }
    }

    /** The failure-free result of {@code config} in this JVM (one rank, no disk): what every rank program must print. */
    public static String reference(HeatBlocksConfig config) {
        HeatSkeleton heat = new HeatSkeleton(config, 0);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("heat-skeleton-reference", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                        .checkpointInput(false).settings(heat.settings()).parameters(p).group(cluster.group(0)).start()) {
            skeleton.run();
            return skeleton.digest();
        }
    }
}
