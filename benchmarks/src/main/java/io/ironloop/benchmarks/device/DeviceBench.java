package io.ironloop.benchmarks.device;

import io.ironloop.Folders;
import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.device.Arg;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceArray;
import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.DeviceSet;
import io.ironloop.device.Intent;
import io.ironloop.device.Kernel;
import io.ironloop.examples.device.DeviceApp;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code ironloop bench devices}: for every device example, the paper's Table 5 split — the run without Ironloop
 * (devices and tracked arrays only), the same run instrumented (engine, session and registrations, checkpoint calls
 * that never fire), and with checkpoints (consistency protocol, snapshot, background write) — plus the bytes the
 * protocol brought home against copying every registered array home, and a restart split into reading the line and
 * positioning (re-executing the setup: devices, arrays, registration, split). Then the device-to-host transfer of
 * the tracking (a host read after a kernel wrote the array) against a raw blocking {@code clEnqueueReadBuffer} of
 * the same bytes (against {@code System.arraycopy} where OpenCL is absent).
 *
 * <p>The instrumentation overhead compares whole runs, each in a JVM of its own, in ABBA pairs: the median ratio with
 * its distribution-free 95 % interval, beside the direct accounting of Ironloop's calls in the same runs (fixed and
 * per iteration) and what the runs add beyond those calls. The other figures are medians of repetitions in this JVM,
 * interleaved, after one warm-up.
 */
public final class DeviceBench {
    private static final int TRANSFER_FLOATS = 8 << 20; // 32 MiB
    /** The paper's instrumentation target: at most this many percent. */
    private static final double TRACKING_TARGET_PCT = 1.0;

    private static final Kernel FILL = Kernel.of("fill", """
            __kernel void fill(__global float* out) {
                int i = get_global_id(0);
                out[i] = (float) (i % 1000);
            }
            """, (args, from, to) -> {
                float[] out = args.floats(0);
                for (int i = from; i < to; i++) {
                    out[i] = (float) (i % 1000);
                }
            });

    private DeviceBench() {
    }

    /**
     * Measures every example on {@code devices} devices of {@code kind} at {@code size}, checkpointing into folders
     * under {@code dir}.
     *
     * @param repetitions repetitions of the in-JVM figures (checkpoints, restart, the warm accounting)
     * @param pairs pairs of fresh-JVM runs for the tracking overhead (9 or more for a 95 % interval inside the extremes)
     * @return the figures, in the order they are printed
     */
    public static Map<String, Object> run(DeviceKind kind, int devices, String size, int repetitions, int pairs, Path dir, PrintStream err) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("devices", kind.name().toLowerCase(Locale.ROOT));
        figures.put("device_count", devices);
        figures.put("repetitions", repetitions);
        figures.put("tracking_pairs", pairs);
        double worstTracking = Double.NEGATIVE_INFINITY;
        long home = 0;
        long naive = 0;
        boolean shown = true;
        for (String name : DeviceApp.NAMES) {
            err.println("bench devices: " + name + " (" + DeviceApp.named(name, size).describe() + ") on " + devices + " " + figures.get("devices")
                    + " device" + (devices == 1 ? "" : "s"));
            AppFigures f = measure(name, kind, devices, size, repetitions, pairs, dir.resolve(name), err);
            f.put(figures, name);
            worstTracking = Math.max(worstTracking, f.trackingPct());
            // shown only where a 95 % interval of the median exists (9 pairs or more) and lies at or below the target
            shown &= Medians.coverage(pairs, 0.95) >= 0.95 && f.tracking.overheadIntervalPct()[1] <= TRACKING_TARGET_PCT;
            home += f.bytesHome;
            naive += f.naiveBytes;
        }
        figures.put("tracking_overhead_pct", worstTracking);
        figures.put("tracking_target_met", shown);
        figures.put("tracking_target_from_s", DeviceApp.NAMES.stream().mapToDouble(n -> (Double) figures.get(n + "_tracking_target_from_s")).max()
                .orElseThrow());
        figures.put("protocol_bytes_over_naive", naive == 0 ? 0.0 : (double) home / naive);
        transfer(figures, repetitions, err);
        Object transferKind = figures.get("transfer_device");
        if (!transferKind.equals(figures.get("devices"))) {
            figures.put("devices", figures.get("devices") + "," + transferKind); // every kind measured
        }
        return figures;
    }

    /** What one example measured. */
    static final class AppFigures {
        /** The fresh-JVM pairs of whole runs: plain against instrumented. */
        PairedRuns.Comparison tracking;
        /** The instrumented runs of those pairs, in order. */
        final List<ExampleRuns.Run> instrumentedRuns = new ArrayList<>();
        final List<ExampleRuns.Run> plainRuns = new ArrayList<>();
        long iterations;
        /** The same accounting in this JVM, warm: seconds inside Ironloop's calls over the plain run's, per repetition. */
        final double[] warmCalls;
        final double[] warmPlain;
        final double[] checkpointed;
        final double[] read;
        final double[] position;
        final List<Double> protocolMs = new ArrayList<>();
        final List<Double> snapshotMs = new ArrayList<>();
        final List<Double> writeMs = new ArrayList<>();
        final List<Double> fileBytes = new ArrayList<>();
        /** Over all checkpoints of all measured runs. */
        long bytesHome;
        long naiveBytes;
        int checkpoints;
        int runs;

        AppFigures(int repetitions) {
            warmCalls = new double[repetitions];
            warmPlain = new double[repetitions];
            checkpointed = new double[repetitions];
            read = new double[repetitions];
            position = new double[repetitions];
        }

        /** The overhead of the whole fresh-JVM runs: the median ratio, in %. */
        double trackingPct() {
            return tracking.overheadPct();
        }

        void put(Map<String, Object> figures, String name) {
            String p = name + "_"; // the example's name as the command line takes it: shallow-water_...
            double plainS = Medians.median(tracking.reference());
            double checkpointedS = Medians.median(checkpointed);
            double[] ci = tracking.overheadIntervalPct();
            double callsS = median(instrumentedRuns, ExampleRuns.Run::inIronloopSeconds);
            double engineCpuS = median(instrumentedRuns, ExampleRuns.Run::engineThreadsCpuSeconds);
            double extraGcS = median(instrumentedRuns, ExampleRuns.Run::gcSeconds) - median(plainRuns, ExampleRuns.Run::gcSeconds);
            figures.put(p + "plain_s", plainS);
            figures.put(p + "instrumented_s", Medians.median(tracking.candidate()));
            figures.put(p + "tracking_overhead_pct", trackingPct());
            figures.put(p + "tracking_overhead_ci_low_pct", ci[0]);
            figures.put(p + "tracking_overhead_ci_high_pct", ci[1]);
            figures.put(p + "tracking_overhead_min_pct", tracking.minPct());
            figures.put(p + "tracking_overhead_max_pct", tracking.maxPct());
            figures.put(p + "tracking_pairs", tracking.reference().length);
            // the same pairs in CPU seconds of the whole process (kernels, JIT, collectors): less moved by other
            // processes' load than the wall clock, which still decides the target
            PairedRuns.Comparison cpu = cpuComparison();
            double[] cpuCi = cpu.overheadIntervalPct();
            figures.put(p + "tracking_cpu_overhead_pct", cpu.overheadPct());
            figures.put(p + "tracking_cpu_overhead_ci_low_pct", cpuCi[0]);
            figures.put(p + "tracking_cpu_overhead_ci_high_pct", cpuCi[1]);
            // The direct accounting, from the same instrumented runs: the time inside Ironloop's calls (all that the
            // instrumented run adds to the plain one's code), what they cost elsewhere (the engine's threads' CPU, the
            // extra garbage collection), split into the fixed part and the per-iteration check.
            figures.put(p + "tracking_calls_pct", (callsS + engineCpuS + Math.max(0, extraGcS)) / plainS * 100);
            // what the whole runs add beyond those calls, per pair: an interval around 0 says the accounting is complete
            double[] unaccounted = unaccountedSeconds();
            double[] unaccountedCi = Medians.interval(unaccounted, 0.95);
            figures.put(p + "tracking_unaccounted_s", Medians.median(unaccounted));
            figures.put(p + "tracking_unaccounted_ci_low_s", unaccountedCi[0]);
            figures.put(p + "tracking_unaccounted_ci_high_s", unaccountedCi[1]);
            figures.put(p + "instrumentation_calls_s", callsS);
            figures.put(p + "instrumentation_fixed_s", median(instrumentedRuns, ExampleRuns.Run::fixedSeconds));
            figures.put(p + "instrumentation_open_s", median(instrumentedRuns, ExampleRuns.Run::openSeconds));
            figures.put(p + "instrumentation_register_s", median(instrumentedRuns, ExampleRuns.Run::registerSeconds));
            figures.put(p + "instrumentation_checks_s", median(instrumentedRuns, ExampleRuns.Run::checksSeconds));
            figures.put(p + "instrumentation_per_iteration_us", median(instrumentedRuns, ExampleRuns.Run::checksSeconds) / iterations * 1e6);
            figures.put(p + "instrumentation_finish_s", median(instrumentedRuns, ExampleRuns.Run::finishSeconds));
            // how long a plain run must last for the accounted calls to stay within the target: the fixed part over
            // what the target leaves once the per-iteration checks (a constant share of the run) are paid
            double leftPerSecond = TRACKING_TARGET_PCT / 100 - median(instrumentedRuns, ExampleRuns.Run::checksSeconds) / plainS;
            figures.put(p + "tracking_target_from_s",
                    leftPerSecond > 0 ? median(instrumentedRuns, ExampleRuns.Run::fixedSeconds) / leftPerSecond : Double.MAX_VALUE);
            figures.put(p + "engine_threads_cpu_s", engineCpuS);
            figures.put(p + "extra_allocated_bytes",
                    median(instrumentedRuns, ExampleRuns.Run::allocatedBytes) - median(plainRuns, ExampleRuns.Run::allocatedBytes));
            figures.put(p + "extra_gc_s", extraGcS);
            figures.put(p + "tracking_calls_warm_pct", Medians.median(warmCalls) / Medians.median(warmPlain) * 100);
            figures.put(p + "checkpointed_s", checkpointedS);
            figures.put(p + "checkpoint_overhead_pct", (checkpointedS - Medians.median(warmPlain)) / Medians.median(warmPlain) * 100);
            figures.put(p + "checkpoints", checkpoints / Math.max(1, runs));
            figures.put(p + "protocol_ms", median(protocolMs));
            figures.put(p + "snapshot_ms", median(snapshotMs));
            figures.put(p + "write_ms", median(writeMs));
            figures.put(p + "checkpoint_file_bytes", median(fileBytes));
            figures.put(p + "protocol_bytes", bytesHome / Math.max(1, checkpoints));
            figures.put(p + "naive_bytes", naiveBytes / Math.max(1, checkpoints));
            figures.put(p + "protocol_bytes_over_naive", naiveBytes == 0 ? 0.0 : (double) bytesHome / naiveBytes);
            figures.put(p + "restart_read_s", Medians.median(read));
            figures.put(p + "restart_position_s", Medians.median(position));
        }

        /** Per pair: instrumented seconds − plain seconds − the seconds inside Ironloop's calls of the instrumented run. */
        private double[] unaccountedSeconds() {
            double[] u = new double[plainRuns.size()];
            for (int i = 0; i < u.length; i++) {
                ExampleRuns.Run instrumented = instrumentedRuns.get(i);
                u[i] = instrumented.seconds() - plainRuns.get(i).seconds() - instrumented.inIronloopSeconds();
            }
            return u;
        }

        private PairedRuns.Comparison cpuComparison() {
            double[] plainCpu = plainRuns.stream().mapToDouble(ExampleRuns.Run::processCpuSeconds).toArray();
            double[] instrumentedCpu = instrumentedRuns.stream().mapToDouble(ExampleRuns.Run::processCpuSeconds).toArray();
            return new PairedRuns.Comparison(plainCpu, instrumentedCpu, plainCpu, instrumentedCpu, 1);
        }

        private static double median(List<Double> values) {
            return values.isEmpty() ? 0.0 : Medians.median(values.stream().mapToDouble(Double::doubleValue).toArray());
        }

        private static double median(List<ExampleRuns.Run> runs, ToDoubleFunction<ExampleRuns.Run> figure) {
            return Medians.median(runs.stream().mapToDouble(figure).toArray());
        }
    }

    private static AppFigures measure(String name, DeviceKind kind, int devices, String size, int repetitions, int pairs, Path dir,
            PrintStream err) {
        AppFigures f = new AppFigures(repetitions);
        trackingPairs(f, name, kind, devices, size, pairs, dir, err);
        for (int r = -1; r < repetitions; r++) { // r = -1: the warm-up
            AppFigures sink = r < 0 ? new AppFigures(1) : f;
            // in this JVM, warm: the plain run (the checkpointed run's reference) and the instrumented one's calls
            double plain = ExampleRuns.plain(name, kind, devices, size).seconds();
            double calls = ExampleRuns.checkpointed(name, kind, devices, size, fresh(dir.resolve("instrumented")), false, null).inIronloopSeconds();
            Path folder = fresh(dir.resolve("checkpointed"));
            double checkpointed = ExampleRuns.checkpointed(name, kind, devices, size, folder, true, sink).seconds();
            double[] restart = restart(name, kind, devices, size, folder);
            if (r >= 0) {
                f.warmPlain[r] = plain;
                f.warmCalls[r] = calls;
                f.checkpointed[r] = checkpointed;
                f.read[r] = restart[0];
                f.position[r] = restart[1];
                err.printf(Locale.ROOT, "bench devices: %s repetition %d: plain %.3f s (calls of an instrumented run %.2f ms), checkpointed %.3f s,"
                        + " restart read %.3f s + positioning %.3f s%n", name, r + 1, plain, calls * 1e3, checkpointed, restart[0], restart[1]);
            }
        }
        return f;
    }

    /**
     * The instrumentation overhead of whole runs, each in a JVM of its own ({@link ExampleRuns#inFreshJvm}): a user's
     * run starts cold, so class loading and the JIT's warm-up belong to both sides, and opening the engine to the
     * instrumented one; no run inherits another's compiled code, heap or profile. The sides alternate in ABBA order
     * ({@link PairedRuns#compare}, after one unmeasured run of each), and the figure is the median of the per-pair
     * ratios with its distribution-free 95 % interval.
     */
    private static void trackingPairs(AppFigures f, String name, DeviceKind kind, int devices, String size, int pairs, Path dir,
            PrintStream err) {
        Path folder = dir.resolve("instrumented");
        f.iterations = DeviceApp.named(name, size).iterations();
        List<ExampleRuns.Run> plain = new ArrayList<>();
        List<ExampleRuns.Run> instrumented = new ArrayList<>();
        f.tracking = PairedRuns.compare("bench devices: " + name, pairs, 0, () -> {
            ExampleRuns.Run run = ExampleRuns.inFreshJvm(ExampleRuns.Side.PLAIN, name, kind, devices, size, folder);
            plain.add(run);
            return run.sample();
        }, () -> {
            ExampleRuns.Run run = ExampleRuns.inFreshJvm(ExampleRuns.Side.INSTRUMENTED, name, kind, devices, size, folder);
            instrumented.add(run);
            return run.sample();
        }, err);
        // compare's first two runs of each side are unmeasured: keep the pairs' runs only
        f.plainRuns.addAll(plain.subList(plain.size() - pairs, plain.size()));
        f.instrumentedRuns.addAll(instrumented.subList(instrumented.size() - pairs, instrumented.size()));
    }

    /** A restart from {@code folder}: {seconds reading the line, seconds positioning (setup re-executed, re-split)}. */
    private static double[] restart(String name, DeviceKind kind, int count, String size, Path folder) {
        DeviceApp app = DeviceApp.named(name, size);
        long start = System.nanoTime();
        try (DeviceSet devices = DeviceSet.open(kind, count);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(folder))) {
            DeviceSession session = DeviceSession.open(engine, devices);
            LongCell iteration = new LongCell(0);
            engine.protect("settings", Scope.SETTINGS, app.settings());
            engine.protect("iteration", Scope.GLOBAL, iteration);
            long beforeDistribution = System.nanoTime();
            int virtual = app.distribution(session); // a pseudo-malleable app reads its saved number of devices: reading
            long afterDistribution = System.nanoTime();
            app.allocate(virtual);
            app.register(session);
            long beforeRead = System.nanoTime();
            session.restore().orElseThrow(() -> new IllegalStateException("the checkpointed run left no line in " + folder));
            long afterRead = System.nanoTime();
            app.distribute(session.virtualDevices());
            long end = System.nanoTime();
            long reading = (afterRead - beforeRead) + (afterDistribution - beforeDistribution);
            return new double[] {reading / 1e9, (end - start - reading) / 1e9};
        }
    }

    /** transfer_over_raw: our tracked device-to-host read against a raw read of the same bytes, interleaved. */
    private static void transfer(Map<String, Object> figures, int repetitions, PrintStream err) {
        boolean openCl = DeviceSet.openClUnavailableReason().isEmpty();
        DeviceKind kind = openCl ? DeviceKind.OPENCL : DeviceKind.JAVA;
        double[] ours = new double[repetitions];
        double[] raw = new double[repetitions];
        long bytes = (long) TRANSFER_FLOATS * Float.BYTES;
        try (DeviceSet devices = DeviceSet.open(kind, 1); RawOpenClRead reference = openCl ? new RawOpenClRead(TRANSFER_FLOATS) : null) {
            Device device = devices.get(0);
            DeviceArray<float[]> array = DeviceArray.of("transfer", new float[TRANSFER_FLOATS]);
            float[] copy = new float[TRANSFER_FLOATS];
            for (int r = -1; r < repetitions; r++) {
                device.launch(FILL, TRANSFER_FLOATS, Arg.write(array));
                device.finish();
                long start = System.nanoTime();
                array.host(Intent.READ);
                long ourNanos = System.nanoTime() - start;
                long rawNanos;
                if (reference != null) {
                    rawNanos = reference.read();
                } else {
                    float[] source = array.host(Intent.READ);
                    long s = System.nanoTime();
                    System.arraycopy(source, 0, copy, 0, source.length);
                    rawNanos = System.nanoTime() - s;
                }
                if (r >= 0) {
                    ours[r] = ourNanos / 1e9;
                    raw[r] = rawNanos / 1e9;
                }
            }
        }
        double oursS = Medians.median(ours);
        double rawS = Medians.median(raw);
        err.printf(Locale.ROOT, "bench devices: transfer of %d MiB to the host on %s: tracked %.2f GB/s, raw %s %.2f GB/s%n", bytes >> 20,
                kind.name().toLowerCase(Locale.ROOT), bytes / oursS / 1e9, openCl ? "clEnqueueReadBuffer" : "System.arraycopy", bytes / rawS / 1e9);
        figures.put("transfer_device", kind.name().toLowerCase(Locale.ROOT));
        figures.put("transfer_bytes", bytes);
        figures.put("transfer_gbps", bytes / oursS / 1e9);
        figures.put("raw_transfer_gbps", bytes / rawS / 1e9);
        figures.put("transfer_over_raw", rawS / oursS);
        figures.put("transfer_target_met", rawS / oursS >= 0.9);
    }

    static Path fresh(Path dir) {
        try {
            Folders.deleteTree(dir);
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }
}
