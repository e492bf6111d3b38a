package io.ironloop.benchmarks.skeleton;

import io.ironloop.benchmarks.Medians;
import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.core.EngineKeys;
import io.ironloop.examples.blocks.heat.HeatBlock;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.examples.skeleton.HeatSkeleton;
import io.ironloop.examples.skeleton.SkeletonTwin;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.skeleton.CheckpointCondition;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Skeleton;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ironloop bench skeleton}: the heat example on the loop skeleton against its hand-written block version
 * (the same Jacobi steps on a {@link BlockLoop} of {@link HeatBlock}s), in this JVM on one rank of an in-JVM group,
 * demo size (512 × 512 cells; the test size, 64 × 64, checks that it runs), interleaved repetitions after one warm-up:
 * <ul>
 *   <li>{@code overhead_pct_no_checkpoint}: skeleton / hand-written − 1, in percent, neither checkpointing (one
 *       in-memory snapshot at the end, no disk);</li>
 *   <li>{@code overhead_pct_checkpoint}: the same with a checkpoint after every step, each one on disk;</li>
 *   <li>{@code checkpoint_cost_pct}: the skeleton with checkpoints every step to disk against without;</li>
 *   <li>{@code checkpoint_size_ratio_unregistered}: a checkpoint's bytes with the input domain unregistered over
 *       with it (target: half, {@link #TARGET_SIZE_RATIO} with the headers);</li>
 *   <li>{@code restart_light_s}, {@code restart_read_s}, {@code restart_positioning_s}, {@code restart_total_s}: a restart
 *       of the checkpointing skeleton run over its own folder ({@link Skeleton.StartTimes});</li>
 *   <li>{@code loc_<example>_skeleton}, {@code loc_<example>_handwritten}: logical lines of the two versions' own code,
 *       for every {@link SkeletonTwin} (heat, circulation, swing).</li>
 * </ul>
 */
public final class SkeletonBench {
    /** Target of the overhead without checkpoints, percent. */
    public static final double TARGET_NO_CHECKPOINT_PCT = 1.0;
    /** Target of the overhead with checkpoints every step to disk, percent. */
    public static final double TARGET_CHECKPOINT_PCT = 5.0;
    /**
     * Target of the checkpoint size ratio: half, plus the headers both checkpoints carry once (the loop state, and per
     * part its boxes: a few dozen bytes against the domain's megabytes).
     */
    public static final double TARGET_SIZE_RATIO = 0.505;

    private SkeletonBench() {
    }

    /**
     * Runs the bench.
     *
     * @param testSize the test size (64 × 64 cells) instead of the demo size (512 × 512)
     * @param steps Jacobi steps per run
     * @param repetitions measured repetitions (after one warm-up round)
     * @param dir a directory for the checkpoint folders (the caller deletes it)
     * @param root the repository's root (for the line counts)
     */
    public static Map<String, Object> run(boolean testSize, long steps, int repetitions, Path dir, Path root, PrintStream err)
            throws IOException {
        HeatBlocksConfig preset = testSize ? HeatBlocksConfig.test() : HeatBlocksConfig.demo();
        HeatBlocksConfig config = preset.toBuilder().steps(steps).build();
        double[] hand = new double[repetitions];
        double[] skel = new double[repetitions];
        double[] handCkpt = new double[repetitions];
        double[] skelCkpt = new double[repetitions];
        double[][] restart = new double[4][repetitions];
        for (int r = -1; r < repetitions; r++) {
            Path folder = dir.resolve("run-" + (r + 1));
            // rotate the order so that a drift of the machine's load weighs on every variant alike
            double[] t = new double[4];
            for (int k = 0; k < 4; k++) {
                int v = (k + Math.max(0, r)) % 4;
                t[v] = switch (v) {
                    case 0 -> handWritten(config, false, folder.resolve("hand"));
                    case 1 -> skeleton(config, false, true, folder.resolve("skel"), new AtomicLong());
                    case 2 -> handWritten(config, true, folder.resolve("hand-ckpt"));
                    default -> skeleton(config, true, false, folder.resolve("skel-ckpt"), new AtomicLong());
                };
            }
            if (r >= 0) {
                hand[r] = t[0];
                skel[r] = t[1];
                handCkpt[r] = t[2];
                skelCkpt[r] = t[3];
                Skeleton.StartTimes st = restart(config, folder.resolve("skel-ckpt"));
                restart[0][r] = st.lightOperations().toNanos() / 1e9;
                restart[1][r] = st.readingData().toNanos() / 1e9;
                restart[2][r] = st.positioning().toNanos() / 1e9;
                restart[3][r] = st.total().toNanos() / 1e9;
                err.printf(Locale.ROOT, "bench skeleton: repetition %d: hand-written %.3f s, skeleton %.3f s; with checkpoints %.3f s, %.3f s%n",
                        r + 1, t[0], t[1], t[2], t[3]);
            }
        }
        AtomicLong with = new AtomicLong();
        AtomicLong without = new AtomicLong();
        HeatBlocksConfig small = preset.toBuilder().steps(2).build();
        skeleton(small, true, true, dir.resolve("size-with"), with);
        skeleton(small, true, false, dir.resolve("size-without"), without);

        double overhead = (Medians.median(skel) / Medians.median(hand) - 1) * 100;
        double overheadCkpt = (Medians.median(skelCkpt) / Medians.median(handCkpt) - 1) * 100;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("overhead_pct_no_checkpoint", overhead);
        f.put("overhead_pct_checkpoint", overheadCkpt);
        f.put("overhead_no_checkpoint_target_met", overhead <= TARGET_NO_CHECKPOINT_PCT);
        f.put("overhead_checkpoint_target_met", overheadCkpt <= TARGET_CHECKPOINT_PCT);
        f.put("checkpoint_cost_pct", (Medians.median(skelCkpt) / Medians.median(skel) - 1) * 100);
        f.put("checkpoint_size_ratio_unregistered", (double) without.get() / with.get());
        f.put("checkpoint_size_target_met", (double) without.get() / with.get() <= TARGET_SIZE_RATIO);
        f.put("checkpoint_bytes_registered", with.get());
        f.put("checkpoint_bytes_unregistered", without.get());
        f.put("restart_light_s", Medians.median(restart[0]));
        f.put("restart_read_s", Medians.median(restart[1]));
        f.put("restart_positioning_s", Medians.median(restart[2]));
        f.put("restart_total_s", Medians.median(restart[3]));
        f.put("handwritten_s", Medians.median(hand));
        f.put("skeleton_s", Medians.median(skel));
        f.put("handwritten_checkpoint_s", Medians.median(handCkpt));
        f.put("skeleton_checkpoint_s", Medians.median(skelCkpt));
        for (SkeletonTwin twin : SkeletonTwin.values()) {
            f.put("loc_" + twin.key() + "_skeleton", twin.skeletonLines(root.resolve(SkeletonTwin.EXAMPLES)));
            f.put("loc_" + twin.key() + "_handwritten", twin.handWrittenLines(root.resolve(SkeletonTwin.EXAMPLES)));
        }
        f.put("steps", steps);
        f.put("cells", (long) config.grid().totalX() * config.grid().totalY());
        f.put("repetitions", repetitions);
        return f;
    }

    /**
     * The repository root holding the examples' sources: the first directory holding {@code examples/src/main/java}
     * above the working directory or above this class's own location.
     *
     * @throws IllegalStateException if there is none (the line counts cannot be measured)
     */
    public static Path sourceRoot() {
        Path[] starts = {Path.of("").toAbsolutePath(), codeLocation()};
        for (Path start : starts) {
            for (Path p = start; p != null; p = p.getParent()) {
                if (Files.isDirectory(p.resolve(SkeletonTwin.EXAMPLES))) {
                    return p;
                }
            }
        }
        throw new IllegalStateException("no directory above " + starts[0] + " or " + starts[1] + " holds " + SkeletonTwin.EXAMPLES
                + ": run the bench from the Ironloop repository");
    }

    private static Path codeLocation() {
        try {
            return Path.of(SkeletonBench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of("").toAbsolutePath();
        }
    }

    private static Parameters parameters(boolean checkpoints, long steps, Path folder) {
        return Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, checkpoints ? Schedule.every(1) : Schedule.never())
                .with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(checkpoints ? 1 : steps)).with(EngineKeys.FT_FOLDER, folder);
    }

    /** A restart of the skeleton version over {@code folder}, which holds the complete run's checkpoints: where the time went. */
    private static Skeleton.StartTimes restart(HeatBlocksConfig config, Path folder) {
        HeatSkeleton heat = new HeatSkeleton(config, 0);
        try (InJvmCluster cluster = InJvmCluster.open("bench-restart", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                        .checkpointInput(false).settings(heat.settings()).parameters(parameters(true, config.steps(), folder))
                        .group(cluster.group(0)).start()) {
            if (skeleton.iteration() != config.steps()) {
                throw new IllegalStateException("the restart resumed at step " + skeleton.iteration() + ", not at the last one, "
                        + config.steps() + ": the bench did not measure a restart");
            }
            return skeleton.startTimes();
        }
    }

    /** Seconds of a run of the hand-written block version. */
    private static double handWritten(HeatBlocksConfig config, boolean checkpoints, Path folder) {
        HeatBlocks example = new HeatBlocks(config);
        try (InJvmCluster cluster = InJvmCluster.open("bench-hand", 1);
                BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).settings(example.settings())
                        .parameters(parameters(checkpoints, config.steps(), folder)).group(cluster.group(0)).start()) {
            long start = System.nanoTime();
            loop.run(example.steps(), example::step);
            return (System.nanoTime() - start) / 1e9;
        }
    }

    /** Seconds of a run of the skeleton version; adds the largest checkpoint's bytes to {@code bytes}. */
    private static double skeleton(HeatBlocksConfig config, boolean checkpoints, boolean input, Path folder, AtomicLong bytes) {
        HeatSkeleton heat = new HeatSkeleton(config, 0);
        try (InJvmCluster cluster = InJvmCluster.open("bench-skel", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                        .checkpointInput(input).settings(heat.settings()).parameters(parameters(checkpoints, config.steps(), folder))
                        .checkpointCondition(CheckpointCondition.everySteps(checkpoints ? 1 : config.steps())).group(cluster.group(0))
                        .subscribe(e -> {
                            if (e instanceof RuntimeEvent.Snapshotted s) {
                                bytes.accumulateAndGet(s.bytes(), Math::max);
                            }
                        }).start()) {
            long start = System.nanoTime();
            skeleton.run();
            return (System.nanoTime() - start) / 1e9;
        }
    }
}
