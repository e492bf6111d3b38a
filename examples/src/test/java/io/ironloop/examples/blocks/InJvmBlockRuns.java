package io.ironloop.examples.blocks;

import io.ironloop.core.Schedule;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a block example on an in-JVM group of ranks, one thread each, optionally crashing one rank at a step
 * (its thread stops and the cluster drops it, as a process killed with SIGKILL), and returns each rank's
 * outcome: {@code <digest> <summary> recoveries=<n>}, or {@code crashed}.
 */
public final class InJvmBlockRuns {
    /** No crash. */
    public static final int NONE = -1;

    private InJvmBlockRuns() {
    }

    /** The crash of one rank's thread, standing in for a process's death. */
    private static final class Crashed extends RuntimeException {
        Crashed() {
            super("crashed", null, false, false);
        }
    }

    /**
     * Runs {@code example} on {@code size} ranks, snapshots every {@code snapshotEvery} steps, disk lines in
     * {@code folder} every other snapshot; rank {@code crashRank} (world rank) dies when it starts step
     * {@code crashAt}.
     */
    public static <B extends Block> List<String> run(BlockExample<B> example, int size, int snapshotEvery, int crashRank, long crashAt,
            Path folder) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(snapshotEvery))
                .with(BlockKeys.DISK_EVERY, Schedule.every(2)).with(EngineKeys.FT_FOLDER, folder);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try (InJvmCluster cluster = InJvmCluster.open(example.name() + "-" + size + "-" + crashRank, size)) {
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                out.add(pool.submit(() -> rank(cluster, rank, example, p, crashRank, crashAt)));
            }
            List<String> results = new ArrayList<>();
            for (Future<String> f : out) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Starts {@code example}'s loop on a one-rank in-JVM group (no disk, no snapshot until a million steps) and
     * gives it to {@code body}, which runs steps and looks at every block.
     */
    public static <B extends Block> void onOneRank(BlockExample<B> example, Consumer<BlockLoop<B>> body) {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never()).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(1_000_000));
        try (InJvmCluster cluster = InJvmCluster.open(example.name() + "-one", 1);
                BlockLoop<B> loop = BlockLoop.builder(example.layout(), example::create).parameters(p).group(cluster.group(0)).start()) {
            body.accept(loop);
        }
    }

    private static <B extends Block> String rank(InJvmCluster cluster, int rank, BlockExample<B> example, Parameters p, int crashRank,
            long crashAt) {
        ProcessGroup g = cluster.group(rank);
        BlockLoop<B> loop = BlockLoop.builder(example.layout(), example::create).parameters(p).group(g).settings(example.settings())
                .start();
        try {
            loop.run(example.steps(), step -> {
                if (rank == crashRank && step.iteration() == crashAt) {
                    cluster.crash(rank);
                    throw new Crashed();
                }
                example.step(step);
            });
            String digest = loop.digest();
            return digest + " " + example.summary(loop::sum) + " recoveries=" + loop.onlineRecoveries();
        } catch (Crashed e) {
            return "crashed";
        } finally {
            if (rank != crashRank) {
                loop.close();
            }
        }
    }
}
