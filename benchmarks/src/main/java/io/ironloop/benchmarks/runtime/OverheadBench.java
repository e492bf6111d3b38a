package io.ironloop.benchmarks.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.ConfigurationException;
import io.ironloop.Folders;
import io.ironloop.benchmarks.Dispersion;
import io.ironloop.benchmarks.Medians;
import io.ironloop.core.Schedule;
import io.ironloop.launcher.Application;
import io.ironloop.launcher.LaunchResult;
import io.ironloop.launcher.LaunchSpec;
import io.ironloop.launcher.Launcher;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.launcher.rank.SavedLevel;
import io.ironloop.examples.quickstart.QuickstartRank;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code ironloop bench overhead}: DeLIA's overhead method (Table 2) on an example application run through
 * the launcher. {@code overhead_pct} = (median with − median without) / median without × 100;
 * {@code rsd_*_pct} = sample standard deviation / mean × 100 of each set of runs.
 *
 * <p>Both variants run the same application at the same size with the same launcher, group layer and rank
 * JVM options, each run in a fresh {@code FT_FOLDER}; the wall time of the whole job (every rank JVM's start
 * to the last one's exit) is measured here. <em>Without</em>: global saves never happen
 * ({@code CHECKPOINTING_GLOBAL_ITERATION} 10<sup>9</sup>), no {@code TRIGGER_HEARTBEAT_MONITORING} section
 * and {@code TRIGGER_SIGNAL} false. <em>With</em>: a global save at every iteration
 * ({@code CHECKPOINTING_GLOBAL_ITERATION} 1), the heartbeat trigger on ({@code TRIGGER_HEARTBEAT_MONITORING}
 * with the group layer's default timing, so the detector itself is the same in both) and
 * {@code TRIGGER_SIGNAL} true. One warm-up pair, then {@code runs} pairs, interleaved in ABBA order (without,
 * with, with, without, …) so that a drift of the machine's load weighs on both variants alike.
 * Every run must exit 0 and print the same {@code result sha256=} line, and only the runs with Ironloop must
 * save: otherwise the bench did not measure what it claims and fails. A job that fails (on a shared machine,
 * typically a rank that could not join in time) is run again, at most {@value #RETRIES} times, and counted in
 * {@code failed_runs}; its whole output is kept in a log file named on standard error.
 *
 * <p>The same figures over the loop alone ({@code loop_*}: from the end of the first iteration, as the ranks
 * report it to the launcher, to the last rank's completion) leave out what does not depend on Ironloop's
 * saves but makes whole jobs noisy: JVM start, the group's join (which varies by about two seconds from one
 * job to the next), the first iteration and the exit.
 */
public final class OverheadBench {
    /** Target: the median overhead at most this many percent (and below the RSD without). */
    public static final double TARGET_PCT = 2.0;
    /** The MTBF of the projection to Young/Daly's interval: one hour, the waLBerla paper's pessimistic case (Section 7.3). */
    static final double YOUNG_DALY_MTBF_S = 3600;
    /** {@code CHECKPOINTING_GLOBAL_ITERATION} of the runs without checkpoints: never reached. */
    static final long NEVER = 1_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RESULT_PREFIX = "result sha256=";
    /** A block example's last line on standard error says how many snapshots committed (the one at start included). */
    private static final java.util.regex.Pattern SNAPSHOTS = java.util.regex.Pattern.compile("(\\d+) snapshots committed");
    /** … and what they cost its loop: the captures and the waits at the handshakes, in total. */
    private static final java.util.regex.Pattern SNAPSHOT_COSTS = java.util.regex.Pattern.compile(
            "capture ([0-9.]+) s over (\\d+) snapshots, handshake wait ([0-9.]+) s over (\\d+) handshakes");
    /** How often a failed run is tried again before the bench gives up. */
    static final int RETRIES = 2;
    /** Options of every rank JVM unless the caller gives others. */
    public static final List<String> DEFAULT_RANK_JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC");
    /**
     * Options of every heat rank JVM at the bench size: the state (256 MiB on the heap: two fields), its copies (512 MiB
     * direct), and on rank 0 the whole domain (512 MiB) gathered for the result's digest.
     */
    static final List<String> HEAT_RANK_JVM_OPTIONS = List.of("-Xmx2g", "-XX:MaxDirectMemorySize=1g", "-XX:+UseSerialGC");

    /** The applications the bench runs, at their bench sizes. */
    public enum App {
        /** The FWI case study, demo size. */
        FWI("io.ironloop.examples.fwi.FwiRank", List.of("demo"), false),
        /** DeLIA's quick-start program, 1 M doubles (8 MB) per rank, 20 iterations. */
        QUICKSTART(QuickstartRank.class.getName(), List.of("1000000", "20"), false),
        /**
         * The 2-D heat block loop, bench size (8 × 8 blocks of 1024 × 1024 cells, 30 steps: iterations of about 100 ms
         * or more per rank with 4 ranks on 2 cores, the size of waLBerla's): with Ironloop, an in-memory snapshot (own
         * memory + the partner's) at every iteration; without, none after the one at start. Its rank JVMs get room for
         * the state and its copies (128 MiB of state per rank on 4 ranks, × 5).
         */
        HEAT("io.ironloop.examples.blocks.heat.HeatBlocksRank", List.of("bench"), true);

        private final String mainClass;
        private final List<String> arguments;
        private final boolean blocks;

        App(String mainClass, List<String> arguments, boolean blocks) {
            this.mainClass = mainClass;
            this.arguments = arguments;
            this.blocks = blocks;
        }

        /** The rank main class. */
        public String mainClass() {
            return mainClass;
        }

        /** The arguments that select the bench size. */
        public List<String> arguments() {
            return arguments;
        }

        /** The options of every rank JVM unless the caller gives others. */
        public List<String> defaultJvmOptions() {
            return this == HEAT ? HEAT_RANK_JVM_OPTIONS : DEFAULT_RANK_JVM_OPTIONS;
        }
    }

    /**
     * The sides of the comparison. {@link #RAW_COPY}, for block examples only, is the reference that says what the
     * overhead of a partner copy at every iteration can be on the machine at all: the run without, plus the bare copy of
     * every rank's state to its partner over raw sockets ({@link RawPartnerCopyRank}).
     */
    enum Variant {
        WITHOUT, WITH, RAW_COPY;

        Map<String, Object> parameters(Path folder, App app) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("FT_FOLDER", folder.toString());
            if (app.blocks) { // the partner level every iteration, or never; no disk lines in either
                p.put("SNAPSHOT_EVERY", this == WITH ? 1 : NEVER);
                p.put("DISK_EVERY", 0);
                // a block loop has no trigger: the section only sets the detector's timing, tolerant in both variants of
                // the seconds a loaded machine starves a rank while rank 0 gathers the whole domain for the digest
                p.put("TRIGGER_HEARTBEAT_MONITORING", Map.of("TIME_MAX_WAIT", 30, "SLEEP_THREAD_TIME", 1));
            } else if (this == WITHOUT) {
                p.put("CHECKPOINTING_GLOBAL_ITERATION", NEVER);
                p.put("TRIGGER_SIGNAL", false); // on by default
            } else {
                p.put("CHECKPOINTING_GLOBAL_ITERATION", 1);
                p.put("TRIGGER_HEARTBEAT_MONITORING", Map.of("TIME_MAX_WAIT", 5, "SLEEP_THREAD_TIME", 1));
                p.put("TRIGGER_SIGNAL", true);
            }
            return p;
        }
    }

    private final App app;
    private final List<String> arguments;
    private final int ranks;
    private final int runs;
    private final Path dir;
    private final List<String> jvmOptions;
    private final PrintStream progress;
    private final Runnable step;
    private String expectedResult;
    private int failedRuns;

    private OverheadBench(App app, List<String> arguments, int ranks, int runs, Path dir, List<String> jvmOptions,
            PrintStream progress, Runnable step) {
        this.app = app;
        this.arguments = List.copyOf(arguments);
        this.ranks = ranks;
        this.runs = runs;
        this.dir = dir;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.progress = progress;
        this.step = step;
    }

    /**
     * Runs the benchmark.
     *
     * @param app the application
     * @param arguments the application's arguments (its size); empty for the bench size
     * @param ranks ranks per job
     * @param runs measured runs of each variant after one warm-up pair, at least 5
     * @param dir an existing directory for the runs' checkpoint folders and parameter files (left empty)
     * @param jvmOptions options of every rank JVM
     * @param progress where progress lines go (standard error)
     * @param step called after each pair of runs, {@link #steps} times in all (for a progress bar)
     * @return the figures, keys as in benchmarks/README.md
     * @throws IllegalArgumentException for a bad count, or an application that is not on the class path
     * @throws BenchFailedException if a run failed, or the runs disagree on the result
     * @throws IOException if the directory cannot be written
     */
    public static Map<String, Object> run(App app, List<String> arguments, int ranks, int runs, Path dir,
            List<String> jvmOptions, PrintStream progress, Runnable step) throws IOException {
        if (ranks < 1) {
            throw new IllegalArgumentException("-n must be at least 1: " + ranks);
        }
        if (runs < 5) {
            throw new IllegalArgumentException("at least 5 runs of each variant are needed for a median: " + runs);
        }
        return new OverheadBench(app, arguments.isEmpty() ? app.arguments() : arguments, ranks, runs, dir, jvmOptions, progress, step)
                .measure();
    }

    /** How many steps a bench of {@code runs} runs of each variant makes: the warm-up pair and each measured pair. */
    public static int steps(int runs) {
        return runs + 1;
    }

    /**
     * One job: its wall time, the time of its loop after the first iteration (from the launcher's receipt of
     * the first {@code iteration} event to the last {@code complete} event) and its global saves.
     */
    private record Run(double seconds, double loopSeconds, long globalSaves, long iterations, SnapshotCosts costs) {
    }

    /** A block loop's rank 0: its snapshots' captures and handshake waits, in total. */
    private record SnapshotCosts(double captureSeconds, long captures, double handshakeWaitSeconds, long handshakes) {
        static final SnapshotCosts NONE = new SnapshotCosts(0, 0, 0, 0);

        double captureMillisEach() {
            return captures == 0 ? 0 : captureSeconds * 1e3 / captures;
        }

        double handshakeWaitMillisEach() {
            return handshakes == 0 ? 0 : handshakeWaitSeconds * 1e3 / handshakes;
        }
    }

    private Map<String, Object> measure() throws IOException {
        checkAvailable();
        double[] without = new double[runs];
        double[] with = new double[runs];
        double[] loopWithout = new double[runs];
        double[] loopWith = new double[runs];
        long[] savesWith = new long[runs];
        double[] iterationMillisWithout = new double[runs];
        double[] iterationMillisWith = new double[runs];
        double[] captureMillis = new double[runs];
        double[] handshakeMillis = new double[runs];
        progress.printf(Locale.ROOT, "bench overhead: %s %s, %d ranks, %d runs of each variant after a warm-up pair,"
                + " interleaved; rank JVM %s%n", app.mainClass(), String.join(" ", arguments), ranks, runs, String.join(" ", jvmOptions));
        double[] rawCopy = new double[runs];
        double[] loopRawCopy = new double[runs];
        for (int k = -1; k < runs; k++) {
            String label = k < 0 ? "warmup" : Integer.toString(k + 1);
            // ABBA order: the warm-up and pairs 2, 4, ... run without first, pairs 1, 3, ... with first (block examples:
            // without, with, raw copy, then raw copy, with, without), so that a drift of the machine's load during the
            // bench weighs on every variant alike
            boolean withoutFirst = k % 2 != 0;
            Run c = app.blocks && !withoutFirst ? runRetrying(Variant.RAW_COPY, label) : null;
            Run a = withoutFirst ? runRetrying(Variant.WITHOUT, label) : null;
            Run b = runRetrying(Variant.WITH, label);
            if (a == null) {
                a = runRetrying(Variant.WITHOUT, label);
            }
            if (app.blocks && c == null) {
                c = runRetrying(Variant.RAW_COPY, label);
            }
            progress.printf(Locale.ROOT, "bench overhead: %s: without %.3f s (loop %.3f s), with %.3f s (loop %.3f s, %d global"
                            + " saves)%s%s%n", k < 0 ? "warm-up" : "pair " + (k + 1) + "/" + runs, a.seconds(), a.loopSeconds(),
                    b.seconds(), b.loopSeconds(), b.globalSaves(),
                    c == null ? "" : String.format(Locale.ROOT, ", raw partner copy %.3f s (loop %.3f s)", c.seconds(), c.loopSeconds()),
                    withoutFirst ? "" : ", with ran first");
            if (a.globalSaves() != 0 || (c != null && c.globalSaves() != 0)) {
                throw new BenchFailedException("bench overhead could not measure: a run without checkpoints saved "
                        + (a.globalSaves() != 0 ? a.globalSaves() : c.globalSaves()) + " global lines");
            }
            if (b.globalSaves() == 0) {
                throw new BenchFailedException("bench overhead could not measure: the run with Ironloop saved no global line");
            }
            if (k >= 0) {
                without[k] = a.seconds();
                with[k] = b.seconds();
                loopWithout[k] = a.loopSeconds();
                loopWith[k] = b.loopSeconds();
                savesWith[k] = b.globalSaves();
                iterationMillisWithout[k] = a.loopSeconds() * 1e3 / Math.max(1, a.iterations() - 1);
                iterationMillisWith[k] = b.loopSeconds() * 1e3 / Math.max(1, b.iterations() - 1);
                captureMillis[k] = b.costs().captureMillisEach();
                handshakeMillis[k] = b.costs().handshakeWaitMillisEach();
                if (c != null) {
                    rawCopy[k] = c.seconds();
                    loopRawCopy[k] = c.loopSeconds();
                }
            }
            step.run();
        }
        double medianWithout = Medians.median(without);
        double medianWith = Medians.median(with);
        double overhead = (medianWith - medianWithout) / medianWithout * 100;
        double rsdWithout = Dispersion.rsdPercent(without);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("ranks", ranks);
        figures.put("runs", runs);
        figures.put("overhead_pct", overhead);
        figures.put("rsd_without_pct", rsdWithout);
        figures.put("rsd_with_pct", Dispersion.rsdPercent(with));
        figures.put("median_without_s", medianWithout);
        figures.put("median_with_s", medianWith);
        figures.put("mean_without_s", Dispersion.mean(without));
        figures.put("mean_with_s", Dispersion.mean(with));
        double loopWithoutMedian = Medians.median(loopWithout);
        double loopWithMedian = Medians.median(loopWith);
        figures.put("loop_overhead_pct", (loopWithMedian - loopWithoutMedian) / loopWithoutMedian * 100);
        figures.put("loop_rsd_without_pct", Dispersion.rsdPercent(loopWithout));
        figures.put("loop_rsd_with_pct", Dispersion.rsdPercent(loopWith));
        figures.put("loop_median_without_s", loopWithoutMedian);
        figures.put("loop_median_with_s", loopWithMedian);
        figures.put("runs_without_s", without);
        figures.put("runs_with_s", with);
        figures.put("global_saves_per_run_with", java.util.Arrays.stream(savesWith).max().orElse(0));
        if (app.blocks) { // the snapshots a run with the partner level took beyond the ones both variants take, and their cost
            figures.put("snapshots_per_run_with", java.util.Arrays.stream(savesWith).max().orElse(0));
            figures.put("iteration_ms_without", Medians.median(iterationMillisWithout));
            figures.put("iteration_ms_with", Medians.median(iterationMillisWith));
            figures.put("capture_ms_per_snapshot", Medians.median(captureMillis));
            figures.put("handshake_wait_ms_per_snapshot", Medians.median(handshakeMillis));
            // The waLBerla paper's Section 7.3: what the measured cost of a snapshot comes to at Young/Daly's interval
            // for an MTBF of one hour, its pessimistic case. A projection, not the every-iteration target above.
            long snapshots = java.util.Arrays.stream(savesWith).max().orElse(0);
            double cost = snapshots == 0 ? 0 : Math.max(0, loopWithMedian - loopWithoutMedian) / snapshots;
            double interval = Schedule.youngDalySeconds(cost, YOUNG_DALY_MTBF_S);
            figures.put("snapshot_cost_s", cost);
            figures.put("young_daly_mtbf_s", YOUNG_DALY_MTBF_S);
            figures.put("young_daly_interval_s", interval);
            figures.put("young_daly_overhead_pct", interval == 0 ? 0.0 : cost / interval * 100);
            // the floor: what the bare copy of the same state to the same partners at every iteration costs here
            double rawMedian = Medians.median(rawCopy);
            double loopRawMedian = Medians.median(loopRawCopy);
            double rawOverhead = (rawMedian - medianWithout) / medianWithout * 100;
            double loopRawOverhead = (loopRawMedian - loopWithoutMedian) / loopWithoutMedian * 100;
            figures.put("raw_copy_overhead_pct", rawOverhead);
            figures.put("loop_raw_copy_overhead_pct", loopRawOverhead);
            figures.put("median_raw_copy_s", rawMedian);
            figures.put("loop_median_raw_copy_s", loopRawMedian);
            figures.put("runs_raw_copy_s", rawCopy);
            figures.put("rsd_raw_copy_pct", Dispersion.rsdPercent(rawCopy));
        }
        figures.put("failed_runs", failedRuns);
        figures.put("overhead_target_met", overhead <= TARGET_PCT && overhead < rsdWithout);
        return figures;
    }

    /** Runs one job, again when it fails (at most {@value #RETRIES} times), counting the failures. */
    private Run runRetrying(Variant variant, String label) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return runOnce(variant, label);
            } catch (RunFailed e) {
                if (attempt == RETRIES) {
                    throw new BenchFailedException("bench overhead could not measure: " + e.getMessage());
                }
                failedRuns++;
                progress.println("bench overhead: " + e.getMessage());
                progress.println("bench overhead: running " + describe(variant, label) + " again (retry " + (attempt + 1) + " of "
                        + RETRIES + "); failed runs are counted in failed_runs");
            }
        }
    }

    private static String describe(Variant variant, String label) {
        return "run " + label + (variant == Variant.RAW_COPY ? " with the raw partner copy" : " " + variant.name().toLowerCase(Locale.ROOT) + " Ironloop");
    }

    private Run runOnce(Variant variant, String label) throws IOException, RunFailed {
        String name = "run-" + label + "-" + variant.name().toLowerCase(Locale.ROOT).replace('_', '-');
        Path folder = dir.resolve(name);
        Path params = dir.resolve(name + ".json");
        JSON.writeValue(params.toFile(), variant.parameters(folder, app));
        JobOutput output = new JobOutput();
        AtomicReference<String> result = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong snapshots = new java.util.concurrent.atomic.AtomicLong();
        AtomicReference<SnapshotCosts> costs = new AtomicReference<>(SnapshotCosts.NONE);
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).restarts(0).workingDirectory(dir)
                .application(new Application(variant == Variant.RAW_COPY ? RawPartnerCopyRank.class.getName() : app.mainClass(),
                        Optional.empty())).arguments(arguments).params(params)
                .out(output.stream()).err(output.stream())
                .outputListener((attempt, rank, stderr, line) -> {
                    if (rank == 0 && !stderr && line.startsWith(RESULT_PREFIX)) {
                        result.set(line);
                    }
                    java.util.regex.Matcher m = SNAPSHOTS.matcher(line);
                    if (rank == 0 && stderr && m.find()) {
                        snapshots.set(Long.parseLong(m.group(1)));
                        java.util.regex.Matcher c = SNAPSHOT_COSTS.matcher(line);
                        if (c.find()) {
                            costs.set(new SnapshotCosts(Double.parseDouble(c.group(1)), Long.parseLong(c.group(2)),
                                    Double.parseDouble(c.group(3)), Long.parseLong(c.group(4))));
                        }
                    }
                });
        jvmOptions.forEach(b::jvmOption);
        LaunchSpec spec = b.build();
        try {
            long t0 = System.nanoTime();
            LaunchResult r = Launcher.run(spec);
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (r.exitStatus() != 0) {
                throw new RunFailed(describe(variant, label) + " failed: " + r.summary() + output.report("ironloop-bench-overhead"));
            }
            if (result.get() == null) {
                throw new RunFailed(describe(variant, label) + ": rank 0 printed no '" + RESULT_PREFIX + "' line"
                        + output.report("ironloop-bench-overhead"));
            }
            if (expectedResult == null) {
                expectedResult = result.get();
            } else if (!expectedResult.equals(result.get())) {
                throw new BenchFailedException("bench overhead could not measure: " + describe(variant, label) + " printed "
                        + result.get() + ", the first run " + expectedResult + output.report("ironloop-bench-overhead"));
            }
            // block loops keep their in-memory snapshots to themselves (one per iteration would flood the launcher) and
            // report how many committed in their last line, where both variants count the one at start and the one at
            // the last iteration; they report no completion: their loop ends at the last iteration
            long saves = app.blocks ? snapshots.get() - 2 : r.events("saved").filter(e -> SavedLevel.GLOBAL.equals(e.fields().get("level"))).count();
            Optional<Instant> firstIteration = r.events("iteration").map(TimelineEvent::time).min(Comparator.naturalOrder());
            Optional<Instant> complete = r.events(app.blocks ? "iteration" : "complete").map(TimelineEvent::time)
                    .max(Comparator.naturalOrder());
            if (firstIteration.isEmpty() || complete.isEmpty()) {
                throw new RunFailed(describe(variant, label) + ": the ranks reported no iteration or no completion to the launcher"
                        + output.report("ironloop-bench-overhead"));
            }
            long iterations = r.events("iteration").filter(e -> e.rank() == 0).count();
            return new Run(seconds, Duration.between(firstIteration.get(), complete.get()).toNanos() / 1e9, saves, iterations, costs.get());
        } finally {
            Folders.deleteTree(folder);
            Files.deleteIfExists(params);
        }
    }

    /** A run that did not finish as it should; it may be tried again. */
    private static final class RunFailed extends Exception {
        private static final long serialVersionUID = 1L;

        RunFailed(String message) {
            super(message);
        }
    }

    private void checkAvailable() {
        List<String> classpath = LaunchSpec.builder().ranks(1).application(new Application(app.mainClass(), Optional.empty()))
                .build().rankClasspath();
        try {
            new Application(app.mainClass(), Optional.empty()).verifyOn(classpath, dir);
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException("--app " + app.name().toLowerCase(Locale.ROOT) + ": " + app.mainClass()
                    + " is not in this build (" + e.getMessage() + ")", e);
        }
    }
}
