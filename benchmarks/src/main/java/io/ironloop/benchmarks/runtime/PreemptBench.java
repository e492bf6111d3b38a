package io.ironloop.benchmarks.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.Folders;
import io.ironloop.benchmarks.MachineMemory;
import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.RawDisk;
import io.ironloop.launcher.Application;
import io.ironloop.launcher.LaunchResult;
import io.ironloop.launcher.LaunchSpec;
import io.ironloop.launcher.Launcher;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.config.Units;
import io.ironloop.core.StoreCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ironloop bench preempt}: how long after SIGTERM a rank's published local state of SIZE bytes is safe
 * on disk, against a raw write + fsync of the same bytes to the same directory, measured in the same run.
 *
 * <p>Each repetition starts one rank ({@link PreemptRank}) through the launcher with {@code TRIGGER_SIGNAL}
 * true and a fresh {@code FT_FOLDER}. When the rank reports that its state is published, the parent sends it
 * SIGTERM and polls (every millisecond) for the commit record {@code rank-00000/line-*.commit}: the time in
 * between is {@code signal_to_safe_s}. Then the raw reference writes SIZE bytes to a new file in the same
 * directory and fsyncs it. One warm-up pair, then {@code repetitions} pairs, interleaved; figures are medians.
 * The rank also reports where its time went (signal delivery, the engine's copy into staging, the write and
 * fsync up to the commit), from the runtime's own events.
 *
 * <p>Memory: the rank holds the application's arrays and the published copy on the heap and the engine's
 * staging off-heap, 3 × SIZE in all; its JVM gets {@code -Xmx} 2 × SIZE + 256 MiB and
 * {@code -XX:MaxDirectMemorySize} SIZE + 256 MiB. A SIZE that does not fit in the memory available is refused
 * before anything starts.
 */
public final class PreemptBench {
    /** Target: the state is safe at most this long after the signal. */
    public static final double TARGET_SECONDS = 2.0;
    /** Target: our throughput at least this fraction of the faster raw durable write of the same bytes. */
    public static final double TARGET_RATIO = 0.67;
    /** Memory the rank JVM needs besides 3 × SIZE (heap headroom, JVM, page tables). */
    static final long MEMORY_HEADROOM = 768L << 20;
    private static final long MIB = 1L << 20;
    private static final Duration POLL = Duration.ofMillis(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final long size;
    private final Path dir;
    private final int repetitions;
    private final PrintStream progress;
    private final Runnable step;
    private final ByteBuffer rawBlock = ByteBuffer.allocateDirect(RawDisk.BLOCK);
    private final ByteBuffer rawDirectBlock = ByteBuffer.allocateDirect(RawDisk.BLOCK + RawDisk.DIRECT_ALIGNMENT)
            .alignedSlice(RawDisk.DIRECT_ALIGNMENT).limit(RawDisk.BLOCK).slice();

    private PreemptBench(long size, Path dir, int repetitions, PrintStream progress, Runnable step) {
        this.size = size;
        this.dir = dir;
        this.repetitions = repetitions;
        this.progress = progress;
        this.step = step;
    }

    /**
     * Runs the benchmark.
     *
     * @param size bytes of published local state, a positive multiple of 8
     * @param dir an existing directory for the checkpoint folders and the raw reference files (left empty)
     * @param repetitions measured repetitions after the warm-up, at least 5
     * @param progress where progress lines go (standard error)
     * @param step called after each repetition, {@link #steps} times in all (for a progress bar)
     * @return the figures, keys as in benchmarks/README.md
     * @throws IllegalArgumentException for a bad size or repetition count, or a size that does not fit in memory
     * @throws BenchFailedException if a repetition could not be measured
     * @throws IOException if the directory cannot be written
     */
    public static Map<String, Object> run(long size, Path dir, int repetitions, PrintStream progress, Runnable step) throws IOException {
        if (size < 8 || size % 8 != 0) {
            throw new IllegalArgumentException("--size must be a positive multiple of 8 bytes: " + size);
        }
        if (repetitions < 5) {
            throw new IllegalArgumentException("at least 5 repetitions are needed for a median: " + repetitions);
        }
        checkMemory(size, MachineMemory.available());
        return new PreemptBench(size, dir, repetitions, progress, step).measure();
    }

    /** How many steps a bench of {@code repetitions} makes: the warm-up and each measured repetition. */
    public static int steps(int repetitions) {
        return repetitions + 1;
    }

    /**
     * Refuses a size whose rank would not fit in memory.
     *
     * @throws IllegalArgumentException naming the memory needed and available
     */
    static void checkMemory(long size, long available) {
        long needed = rankMemory(size);
        if (needed > available) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--size %s does not fit in memory: the rank holds the"
                    + " application's state, the published copy and the engine's staging (3 x SIZE) plus %d MiB, %s in all,"
                    + " but only %s is available: choose a smaller --size", Units.formatSize(size), MEMORY_HEADROOM / MIB,
                    Units.formatSize(needed), Units.formatSize(available)));
        }
    }

    static long rankMemory(long size) {
        return 3 * size + MEMORY_HEADROOM;
    }

    /** The rank JVM's options for SIZE bytes of state. */
    static List<String> rankJvmOptions(long size) {
        long heapMib = (2 * size + 256 * MIB + MIB - 1) / MIB;
        long directMib = (size + 256 * MIB + MIB - 1) / MIB;
        return List.of("-Xmx" + heapMib + "m", "-XX:MaxDirectMemorySize=" + directMib + "m", "-XX:+UseSerialGC");
    }

    private Map<String, Object> measure() throws IOException {
        double[] safe = new double[repetitions];
        double[] raw = new double[repetitions];
        double[] rawDirect = new double[repetitions];
        double[] rawBest = new double[repetitions];
        boolean direct = directAvailable();
        List<Map<String, Double>> profiles = new ArrayList<>();
        progress.printf(Locale.ROOT, "bench preempt: %s of published local state, %d repetitions after a warm-up, in %s;"
                + " rank JVM %s%n", Units.formatSize(size), repetitions, dir, String.join(" ", rankJvmOptions(size)));
        for (int rep = -1; rep < repetitions; rep++) {
            String label = rep < 0 ? "warm-up" : "repetition " + (rep + 1) + "/" + repetitions;
            Sample s = preempt(rep < 0 ? "warmup" : Integer.toString(rep + 1));
            String tag = rep < 0 ? "warmup" : Integer.toString(rep + 1);
            // the two raw writes alternate in order, so that neither always finds the memory the other freed
            double r;
            double d = Double.NaN;
            if (direct && rep % 2 != 0) {
                d = rawWrite("direct-" + tag, true);
                r = rawWrite(tag, false);
            } else {
                r = rawWrite(tag, false);
                d = direct ? rawWrite("direct-" + tag, true) : Double.NaN;
            }
            progress.printf(Locale.ROOT, "bench preempt: %s: signal to safe %.3f s (signal %.3f s, staging copy %.3f s,"
                            + " write + fsync + commit %.3f s, other %.3f s); raw write + fsync %.3f s, direct %.3f s%n", label,
                    s.signalToSafe(), s.profile().getOrDefault("signal_delivery_s", Double.NaN),
                    s.profile().getOrDefault("staging_copy_s", Double.NaN), s.profile().getOrDefault("persist_s", Double.NaN),
                    s.profile().getOrDefault("other_s", Double.NaN), r, d);
            if (rep >= 0) {
                safe[rep] = s.signalToSafe();
                raw[rep] = r;
                rawDirect[rep] = d;
                rawBest[rep] = direct ? Math.min(r, d) : r;
                profiles.add(s.profile());
            }
            step.run();
        }
        double medianSafe = Medians.median(safe);
        double medianRaw = Medians.median(raw);
        double medianBest = Medians.median(rawBest);
        double gb = size / 1e9;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("size_bytes", size);
        figures.put("repetitions", repetitions);
        figures.put("signal_to_safe_s", medianSafe);
        figures.put("signal_to_safe_min_s", min(safe));
        figures.put("signal_to_safe_max_s", max(safe));
        figures.put("raw_write_s", medianRaw);
        if (direct) {
            figures.put("raw_write_direct_s", Medians.median(rawDirect));
        }
        figures.put("raw_write_best_s", medianBest);
        figures.put("preempt_over_raw_write", medianBest / medianSafe);
        figures.put("preempt_gbps", gb / medianSafe);
        figures.put("raw_write_gbps", gb / medianRaw);
        if (direct) {
            figures.put("raw_write_direct_gbps", gb / Medians.median(rawDirect));
        }
        for (String key : List.of("publish_s", "signal_delivery_s", "staging_copy_s", "persist_s", "other_s",
                "trigger_action_s")) {
            double[] values = profiles.stream().filter(p -> p.containsKey(key)).mapToDouble(p -> p.get(key)).toArray();
            if (values.length > 0) {
                figures.put(key, Medians.median(values));
            }
        }
        figures.put("signal_to_safe_target_met", medianSafe <= TARGET_SECONDS);
        figures.put("preempt_target_met", medianBest / medianSafe >= TARGET_RATIO);
        return figures;
    }

    private record Sample(double signalToSafe, Map<String, Double> profile) {
    }

    private Sample preempt(String label) throws IOException {
        Path folder = dir.resolve("preempt-" + label);
        Path params = dir.resolve("preempt-" + label + ".json");
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("FT_FOLDER", folder.toString());
        p.put("TRIGGER_SIGNAL", true);
        // a slow disk is measured rather than cut off by the default 25 s deadline
        p.put("TRIGGER_SIGNAL_DEADLINE", "10m");
        JSON.writeValue(params.toFile(), p);
        JobOutput output = new JobOutput();
        CompletableFuture<TimelineEvent> ready = new CompletableFuture<>();
        CompletableFuture<TimelineEvent> profile = new CompletableFuture<>();
        AtomicLong pid = new AtomicLong(TimelineEvent.NO_PID);
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(1).restarts(0).workingDirectory(dir)
                .application(new Application(PreemptRank.class.getName(), Optional.empty()))
                .arguments(List.of(Long.toString(size))).params(params).out(output.stream()).err(output.stream())
                .eventListener(e -> {
                    if (e.type().equals(TimelineEvent.RANK_STARTED)) {
                        pid.set(e.pid());
                    } else if (e.type().equals(PreemptRank.READY)) {
                        ready.complete(e);
                    } else if (e.type().equals(PreemptRank.PROFILE)) {
                        profile.complete(e);
                    }
                });
        rankJvmOptions(size).forEach(b::jvmOption);
        LaunchSpec spec = b.build();
        CompletableFuture<LaunchResult> job = CompletableFuture.supplyAsync(() -> Launcher.run(spec), PreemptBench::daemon);
        Duration slow = Duration.ofSeconds(120).plusSeconds(60 * Math.max(1, size >> 30));
        try {
            Object first = await(CompletableFuture.anyOf(ready, job), slow, "the rank to publish its state", output);
            if (!(first instanceof TimelineEvent rank)) {
                throw failed("the rank exited before it was ready: " + job.join().summary(), output);
            }
            Path rankDir = folder.resolve(StoreCatalog.rankSeries(0));
            ProcessHandle process = ProcessHandle.of(rank.pid())
                    .orElseThrow(() -> failed("the rank (pid " + rank.pid() + ") is gone before the signal", output));
            Instant signalled = Instant.now();
            long t0 = System.nanoTime();
            process.destroy();
            long t1 = awaitCommit(rankDir, job, t0 + slow.toNanos(), output);
            LaunchResult result = await(job, slow, "the rank to exit", output);
            if (result.exitStatus() != 143) {
                throw failed("the rank exited with status " + result.exitStatus() + " after SIGTERM, not 143: " + result.summary(),
                        output);
            }
            Map<String, Double> timings = new LinkedHashMap<>();
            number(ready.join(), "publish_s").ifPresent(v -> timings.put("publish_s", v));
            if (profile.isDone()) {
                TimelineEvent e = profile.join();
                e.longField("signal_at_us").ifPresent(us -> timings.put("signal_delivery_s",
                        (us - ChronoUnit.MICROS.between(Instant.EPOCH, signalled)) / 1e6));
                Optional<Double> staging = number(e, "staging_s");
                Optional<Double> durable = number(e, "durable_s");
                staging.ifPresent(v -> timings.put("staging_copy_s", v));
                if (staging.isPresent() && durable.isPresent()) {
                    timings.put("persist_s", durable.get() - staging.get());
                }
                number(e, "action_s").ifPresent(v -> timings.put("trigger_action_s", v));
            }
            double signalToSafe = (t1 - t0) / 1e9;
            if (timings.containsKey("signal_delivery_s") && timings.containsKey("staging_copy_s") && timings.containsKey("persist_s")) {
                timings.put("other_s", signalToSafe - timings.get("signal_delivery_s") - timings.get("staging_copy_s")
                        - timings.get("persist_s"));
            }
            return new Sample(signalToSafe, timings);
        } finally {
            if (!job.isDone() && pid.get() > 0) {
                ProcessHandle.of(pid.get()).ifPresent(ProcessHandle::destroyForcibly);
                try {
                    job.handle((r, e) -> null).get(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException | TimeoutException e) {
                    progress.println("bench preempt: the rank's launcher did not stop after SIGKILL: " + e);
                }
            }
            Folders.deleteTree(folder);
            Files.deleteIfExists(params);
        }
    }

    /** Runs the launcher on a thread of its own, so that the bench's thread watches the disk meanwhile. */
    static void daemon(Runnable r) {
        Thread t = new Thread(r, "ironloop-bench-launcher");
        t.setDaemon(true);
        t.start();
    }

    private long awaitCommit(Path rankDir, CompletableFuture<LaunchResult> job, long deadline, JobOutput output) throws IOException {
        while (true) {
            try (DirectoryStream<Path> commits = Files.newDirectoryStream(rankDir, "line-*" + StoreCatalog.COMMIT_SUFFIX)) {
                if (commits.iterator().hasNext()) {
                    return System.nanoTime();
                }
            } catch (NoSuchFileException e) {
                // the series directory is not there yet
            }
            if (job.isDone()) {
                throw failed("the rank exited without writing a commit record in " + rankDir + ": " + job.join().summary(), output);
            }
            if (System.nanoTime() > deadline) {
                throw failed("no commit record in " + rankDir + " in time after SIGTERM", output);
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    private double rawWrite(String label, boolean direct) throws IOException {
        Path file = dir.resolve("raw-reference-" + label + ".bin");
        try {
            long t0 = System.nanoTime();
            if (direct) {
                RawDisk.writeAndSyncDirect(file, size, rawDirectBlock);
            } else {
                RawDisk.writeAndSync(file, size, rawBlock);
            }
            return (System.nanoTime() - t0) / 1e9;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Whether the direct-I/O reference can run here: a size of whole blocks, and direct I/O in this directory. */
    private boolean directAvailable() {
        if (size % RawDisk.DIRECT_ALIGNMENT != 0) {
            progress.println("bench preempt: no direct-I/O reference: --size is not a multiple of " + RawDisk.DIRECT_ALIGNMENT);
            return false;
        }
        Path probe = dir.resolve("raw-reference-probe.bin");
        try {
            RawDisk.writeAndSyncDirect(probe, RawDisk.DIRECT_ALIGNMENT, rawDirectBlock);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            progress.println("bench preempt: no direct-I/O reference in " + dir + ": " + e);
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                progress.println("bench preempt: could not delete " + probe + ": " + e);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T await(CompletableFuture<?> f, Duration limit, String what, JobOutput output) {
        try {
            return (T) f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw failed("timed out after " + Units.formatDuration(limit) + " waiting for " + what, output);
        } catch (ExecutionException e) {
            throw new BenchFailedException("the launcher failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailedException("interrupted while waiting for " + what, e);
        }
    }

    private static Optional<Double> number(TimelineEvent e, String field) {
        return e.fields().get(field) instanceof Number n ? Optional.of(n.doubleValue()) : Optional.empty();
    }

    private static BenchFailedException failed(String message, JobOutput output) {
        return new BenchFailedException("bench preempt could not measure: " + message + output.report("ironloop-bench-preempt"));
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElseThrow();
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElseThrow();
    }
}
