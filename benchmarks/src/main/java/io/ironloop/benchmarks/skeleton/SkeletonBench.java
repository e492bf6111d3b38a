package io.ironloop.benchmarks.skeleton;

import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.examples.blocks.BlockGrid;
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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ironloop bench skeleton}: the heat example on the loop skeleton against its hand-written block version
 * (the same Jacobi steps on a {@link BlockLoop} of {@link HeatBlock}s, the same mean temperature at the end, checked),
 * in this JVM on one rank of an in-JVM group, demo size (512 × 512 cells; the test size, 64 × 64, checks that it
 * runs). Each overhead is measured in alternating pairs ({@link PairedRuns}): every side of a pair runs its version
 * back to back for at least {@code pairSeconds}, and the figure is the median of the per-pair ratios, with their
 * smallest and largest. Each run is timed from the start of its loop to its last disk line durable (the loop's
 * {@code run} and {@code close}), the same span for both versions.
 * <ul>
 *   <li>{@code overhead_pct_no_checkpoint}: skeleton / hand-written − 1, in percent, neither checkpointing (one
 *       in-memory snapshot at the end, no disk);</li>
 *   <li>{@code overhead_pct_checkpoint}: the same with a checkpoint after every step, each one on disk;</li>
 *   <li>{@code overhead_pct_no_checkpoint_same_split}: supplementary, against the hand-written version cut into the
 *       skeleton's 8 row slabs instead of 64 blocks: the skeleton's own cost, without the difference of the split;</li>
 *   <li>{@code overhead_pct_no_checkpoint_cpu}, {@code overhead_pct_no_checkpoint_same_split_cpu}: supplementary, the
 *       same over the loop thread's CPU seconds (without checkpoints the work runs on that thread), which the machine's
 *       load moves far less than the wall clock;</li>
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
     * @param pairs measured pairs per comparison (after one warm-up run of each side), and restarts measured
     * @param pairSeconds the least seconds each side of a pair runs its version back to back (0: one run)
     * @param dir a directory for the checkpoint folders (the caller deletes it)
     * @param root the repository's root (for the line counts)
     */
    public static Map<String, Object> run(boolean testSize, long steps, int pairs, double pairSeconds, Path dir, Path root, PrintStream err)
            throws IOException {
        HeatBlocksConfig preset = testSize ? HeatBlocksConfig.test() : HeatBlocksConfig.demo();
        HeatBlocksConfig config = preset.toBuilder().steps(steps).build();
        HeatBlocksConfig slabs = config.toBuilder().grid(rowSlabs(config)).build();
        Folders folders = new Folders(dir);
        checkSameResult(config, slabs, folders);

        PairedRuns.Comparison plain = PairedRuns.compare("bench skeleton: no checkpoints,", pairs, pairSeconds,
                () -> handWritten(config, false, folders.next()), () -> skeleton(config, false, true, folders.next(), null), err);
        PairedRuns.Comparison split = PairedRuns.compare("bench skeleton: no checkpoints, same split,", pairs, pairSeconds,
                () -> handWritten(slabs, false, folders.next()), () -> skeleton(config, false, true, folders.next(), null), err);
        PairedRuns.Comparison ckpt = PairedRuns.compare("bench skeleton: checkpoint every step to disk,", pairs, pairSeconds,
                () -> handWritten(config, true, folders.next()), () -> skeleton(config, true, false, folders.next(), null), err);

        double[][] restart = new double[4][pairs];
        for (int r = 0; r < pairs; r++) {
            Path folder = folders.next();
            skeleton(config, true, false, folder, null);
            Skeleton.StartTimes st = restart(config, folder);
            restart[0][r] = st.lightOperations().toNanos() / 1e9;
            restart[1][r] = st.readingData().toNanos() / 1e9;
            restart[2][r] = st.positioning().toNanos() / 1e9;
            restart[3][r] = st.total().toNanos() / 1e9;
        }
        folders.clear();
        AtomicLong with = new AtomicLong();
        AtomicLong without = new AtomicLong();
        HeatBlocksConfig small = preset.toBuilder().steps(2).build();
        skeleton(small, true, true, dir.resolve("size-with"), with);
        skeleton(small, true, false, dir.resolve("size-without"), without);

        double overhead = plain.overheadPct();
        double overheadCkpt = ckpt.overheadPct();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("overhead_pct_no_checkpoint", overhead);
        f.put("overhead_pct_checkpoint", overheadCkpt);
        f.put("overhead_no_checkpoint_target_met", overhead <= TARGET_NO_CHECKPOINT_PCT);
        f.put("overhead_checkpoint_target_met", overheadCkpt <= TARGET_CHECKPOINT_PCT);
        f.put("overhead_pct_no_checkpoint_min", plain.minPct());
        f.put("overhead_pct_no_checkpoint_max", plain.maxPct());
        f.put("overhead_pct_checkpoint_min", ckpt.minPct());
        f.put("overhead_pct_checkpoint_max", ckpt.maxPct());
        f.put("overhead_pct_no_checkpoint_cpu", plain.cpuOverheadPct());
        f.put("overhead_pct_no_checkpoint_same_split", split.overheadPct());
        f.put("overhead_pct_no_checkpoint_same_split_cpu", split.cpuOverheadPct());
        f.put("overhead_pct_no_checkpoint_same_split_min", split.minPct());
        f.put("overhead_pct_no_checkpoint_same_split_max", split.maxPct());
        f.put("checkpoint_cost_pct", (Medians.median(ckpt.candidate()) / Medians.median(plain.candidate()) - 1) * 100);
        f.put("checkpoint_size_ratio_unregistered", (double) without.get() / with.get());
        f.put("checkpoint_size_target_met", (double) without.get() / with.get() <= TARGET_SIZE_RATIO);
        f.put("checkpoint_bytes_registered", with.get());
        f.put("checkpoint_bytes_unregistered", without.get());
        f.put("restart_light_s", Medians.median(restart[0]));
        f.put("restart_read_s", Medians.median(restart[1]));
        f.put("restart_positioning_s", Medians.median(restart[2]));
        f.put("restart_total_s", Medians.median(restart[3]));
        f.put("handwritten_s", Medians.median(plain.reference()));
        f.put("skeleton_s", Medians.median(plain.candidate()));
        f.put("handwritten_slabs_s", Medians.median(split.reference()));
        f.put("handwritten_checkpoint_s", Medians.median(ckpt.reference()));
        f.put("skeleton_checkpoint_s", Medians.median(ckpt.candidate()));
        for (SkeletonTwin twin : SkeletonTwin.values()) {
            f.put("loc_" + twin.key() + "_skeleton", twin.skeletonLines(root.resolve(SkeletonTwin.EXAMPLES)));
            f.put("loc_" + twin.key() + "_handwritten", twin.handWrittenLines(root.resolve(SkeletonTwin.EXAMPLES)));
        }
        f.put("steps", steps);
        f.put("cells", (long) config.grid().totalX() * config.grid().totalY());
        f.put("repetitions", pairs);
        f.put("runs_per_side_no_checkpoint", plain.runsPerSide());
        f.put("runs_per_side_checkpoint", ckpt.runsPerSide());
        f.put("pair_seconds", pairSeconds);
        return f;
    }

    /** The hand-written version's grid cut like the skeleton's parts: {@link HeatSkeleton#PARTS} row slabs. */
    private static BlockGrid rowSlabs(HeatBlocksConfig config) {
        BlockGrid g = config.grid();
        if (g.totalY() % HeatSkeleton.PARTS != 0) {
            throw new IllegalArgumentException("the grid's " + g.totalY() + " rows do not split into " + HeatSkeleton.PARTS + " slabs");
        }
        return new BlockGrid(1, HeatSkeleton.PARTS, g.totalX(), g.totalY() / HeatSkeleton.PARTS);
    }

    /**
     * Checks that the versions compute the same thing: the mean temperature after the run, to the summary's six
     * decimals (the sums add in different orders).
     *
     * @throws IllegalStateException if they differ
     */
    private static void checkSameResult(HeatBlocksConfig config, HeatBlocksConfig slabs, Folders folders) {
        String skeleton = skeletonSummary(config, folders.next());
        for (HeatBlocksConfig c : new HeatBlocksConfig[] {config, slabs}) {
            HeatBlocks example = new HeatBlocks(c);
            try (InJvmCluster cluster = InJvmCluster.open("bench-check", 1);
                    BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).settings(example.settings())
                            .parameters(parameters(false, c.steps(), folders.next())).group(cluster.group(0)).start()) {
                loop.run(example.steps(), example::step);
                String hand = example.summary(loop::sum);
                if (!hand.equals(skeleton)) {
                    throw new IllegalStateException("the hand-written version (" + c.grid().describe() + ") ends with " + hand
                            + ", the skeleton with " + skeleton + ": the bench would not compare the same computation");
                }
            }
        }
        folders.clear();
    }

    /** The skeleton version's result in {@link HeatBlocks#summary}'s words: the interior's mean temperature. */
    private static String skeletonSummary(HeatBlocksConfig config, Path folder) {
        HeatSkeleton heat = new HeatSkeleton(config);
        int nx = config.grid().totalX();
        int ny = config.grid().totalY();
        try (InJvmCluster cluster = InJvmCluster.open("bench-check", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                        .checkpointInput(false).settings(heat.settings()).parameters(parameters(false, config.steps(), folder))
                        .group(cluster.group(0)).start()) {
            skeleton.run();
            double sum = skeleton.sum((d, possessed) -> {
                double s = 0;
                for (int y = Math.max(1, possessed.lo(0)); y < Math.min(ny + 1, possessed.hi(0)); y++) {
                    for (int x = 1; x <= nx; x++) {
                        s += d.get(y, x);
                    }
                }
                return s;
            });
            return String.format(Locale.ROOT, "mean temperature %.6f", sum / ((double) nx * ny));
        }
    }

    /** Fresh checkpoint folders under one directory, each deleted when the next is asked for (outside the timed spans). */
    private static final class Folders {
        private final Path dir;
        private long count;

        Folders(Path dir) {
            this.dir = dir;
        }

        Path next() {
            clear();
            return dir.resolve("run-" + count++);
        }

        void clear() {
            if (count > 0) {
                deleteTree(dir.resolve("run-" + (count - 1)));
            }
        }
    }

    private static void deleteTree(Path root) {
        try {
            io.ironloop.Folders.deleteTree(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the bench's checkpoint folder " + root, e);
        }
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
        HeatSkeleton heat = new HeatSkeleton(config);
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

    /** A run of the hand-written block version, timed over its loop's run and close (the last disk line durable). */
    private static PairedRuns.Sample handWritten(HeatBlocksConfig config, boolean checkpoints, Path folder) {
        HeatBlocks example = new HeatBlocks(config);
        try (InJvmCluster cluster = InJvmCluster.open("bench-hand", 1);
                BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).settings(example.settings())
                        .parameters(parameters(checkpoints, config.steps(), folder)).group(cluster.group(0)).start()) {
            return PairedRuns.time(() -> {
                loop.run(example.steps(), example::step);
                loop.close();
            });
        }
    }

    /**
     * A run of the skeleton version, timed as {@link #handWritten}; adds the largest checkpoint's bytes to {@code bytes}
     * if given.
     */
    private static PairedRuns.Sample skeleton(HeatBlocksConfig config, boolean checkpoints, boolean input, Path folder, AtomicLong bytes) {
        HeatSkeleton heat = new HeatSkeleton(config);
        Skeleton.Builder<Domain2D> b = Skeleton.builder(heat.domain(), HeatSkeleton.PARTS, heat.partition(), heat)
                .checkpointInput(input).settings(heat.settings()).parameters(parameters(checkpoints, config.steps(), folder))
                .checkpointCondition(CheckpointCondition.everySteps(checkpoints ? 1 : config.steps()));
        if (bytes != null) {
            b.subscribe(e -> {
                if (e instanceof RuntimeEvent.Snapshotted s) {
                    bytes.accumulateAndGet(s.bytes(), Math::max);
                }
            });
        }
        try (InJvmCluster cluster = InJvmCluster.open("bench-skel", 1); Skeleton<Domain2D> skeleton = b.group(cluster.group(0)).start()) {
            return PairedRuns.time(() -> {
                skeleton.run();
                skeleton.close();
            });
        }
    }
}
