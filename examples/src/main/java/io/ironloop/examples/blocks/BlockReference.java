package io.ironloop.examples.blocks;

import io.ironloop.core.Schedule;
import io.ironloop.config.Parameters;
import io.ironloop.examples.ResultDigest;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Function;

/**
 * The failure-free result of a block example in one JVM: every block on one rank of an in-JVM group, no
 * disk, one snapshot at the end. Since the examples' results do not depend on who owns which block, this is
 * the digest every fault-tolerant run of the same settings must print, on any number of ranks.
 */
public final class BlockReference {
    private BlockReference() {
    }

    /** The result of a complete failure-free run of {@code example}: its final state and a summary. */
    public record Result(String digest, String summary) {
    }

    /** Runs {@code example} to the end on one rank. */
    public static <B extends Block> Result run(BlockExample<B> example) {
        // one snapshot, at the last step: the in-memory copy costs nothing here and nothing can fail
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never())
                .with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(example.steps()));
        try (InJvmCluster cluster = InJvmCluster.open(example.name() + "-reference", 1);
                BlockLoop<B> loop = BlockLoop.builder(example.layout(), example::create).parameters(p).group(cluster.group(0))
                        .settings(example.settings()).start()) {
            loop.run(example.steps(), example::step);
            return new Result(loop.digest(), example.summary(loop::sum));
        }
    }

    /**
     * The entry point of a reference program: parses {@code args} ({@link BlockRankOptions}, the pause is
     * ignored), runs the example and prints {@code result sha256=<hex>}; a usage error exits with status 2.
     */
    public static void main(String program, String[] args, Function<BlockRankOptions, ? extends BlockExample<?>> examples) {
        BlockExample<?> example;
        try {
            example = examples.apply(BlockRankOptions.parse(args));
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage());
            System.err.println("usage: " + program + " " + BlockRankOptions.USAGE);
            System.exit(2);
            return;
        }
        PrintStream err = System.err;
        err.printf(Locale.ROOT, "%s: %s, one process%n", example.name(), example.describe());
        long start = System.nanoTime();
        Result r = run(example);
        err.printf(Locale.ROOT, "%s: %d steps, %s, %.2f s%n", example.name(), example.steps(), r.summary(),
                (System.nanoTime() - start) / 1e9);
        System.out.println(ResultDigest.LINE_PREFIX + r.digest());
    }
}
