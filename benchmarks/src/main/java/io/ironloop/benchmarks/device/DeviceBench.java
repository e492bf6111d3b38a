package io.ironloop.benchmarks.device;

import io.ironloop.Folders;
import io.ironloop.benchmarks.Medians;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.device.Arg;
import io.ironloop.device.CheckpointReport;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceArray;
import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.DeviceSet;
import io.ironloop.device.Intent;
import io.ironloop.device.Kernel;
import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.device.DeviceApp;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * {@code ironloop bench devices}: for every device example, the paper's Table 5 split — the run without Ironloop
 * (devices and tracked arrays only), the same run instrumented (engine, session and registrations, checkpoint calls
 * that never fire), and with checkpoints (consistency protocol, snapshot, background write) — plus the bytes the
 * protocol brought home against copying every registered array home, and a restart split into reading the line and
 * positioning (re-executing the setup: devices, arrays, registration, split). Then the device-to-host transfer of
 * the tracking (a host read after a kernel wrote the array) against a raw blocking {@code clEnqueueReadBuffer} of
 * the same bytes (against {@code System.arraycopy} where OpenCL is absent). Each figure is the median of the
 * repetitions, interleaved, after one warm-up.
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
     * @param pairSeconds least seconds each side of a tracking-overhead pair runs the example back to back
     * @return the figures, in the order they are printed
     */
    public static Map<String, Object> run(DeviceKind kind, int devices, String size, int repetitions, double pairSeconds, Path dir,
            PrintStream err) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("devices", kind.name().toLowerCase(Locale.ROOT));
        figures.put("device_count", devices);
        figures.put("repetitions", repetitions);
        double worstTracking = Double.NEGATIVE_INFINITY;
        long home = 0;
        long naive = 0;
        boolean pairsAgree = true;
        for (String name : DeviceApp.NAMES) {
            err.println("bench devices: " + name + " (" + DeviceApp.named(name, size).describe() + ") on " + devices + " " + figures.get("devices")
                    + " device" + (devices == 1 ? "" : "s"));
            AppFigures f = measure(name, kind, devices, size, repetitions, pairSeconds, dir.resolve(name), err);
            f.put(figures, name);
            worstTracking = Math.max(worstTracking, f.trackingPct);
            // the whole runs must not contradict the timed calls: at least one pair within the target
            pairsAgree &= Arrays.stream(f.trackingRatio).min().orElseThrow() <= 1 + TRACKING_TARGET_PCT / 100;
            home += f.bytesHome;
            naive += f.naiveBytes;
        }
        figures.put("tracking_overhead_pct", worstTracking);
        figures.put("tracking_target_met", worstTracking <= TRACKING_TARGET_PCT && pairsAgree);
        figures.put("protocol_bytes_over_naive", naive == 0 ? 0.0 : (double) home / naive);
        transfer(figures, repetitions, err);
        Object transferKind = figures.get("transfer_device");
        if (!transferKind.equals(figures.get("devices"))) {
            figures.put("devices", figures.get("devices") + "," + transferKind); // every kind measured
        }
        return figures;
    }

    /** What one example measured. */
    private static final class AppFigures {
        final double[] plain;
        final double[] instrumented;
        /** Instrumented over plain, per pair. */
        final double[] trackingRatio;
        int runsPerSide;
        /** Seconds of an instrumented run spent inside Ironloop's calls (engine, session, registration, checkpoint checks). */
        final double[] inIronloop;
        /** Of {@link #inIronloop}: opening the engine and session, the registrations, the per-iteration checks, awaiting and closing. */
        final double[] inOpen;
        final double[] inRegister;
        final double[] inChecks;
        final double[] inFinish;
        /** CPU seconds of the engine's threads during an instrumented run, bytes and collector seconds it added. */
        final double[] engineThreadsCpu;
        final double[] extraAllocated;
        final double[] extraGc;
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
        double trackingPct;

        AppFigures(int repetitions) {
            plain = new double[repetitions];
            instrumented = new double[repetitions];
            trackingRatio = new double[repetitions];
            inIronloop = new double[repetitions];
            inOpen = new double[repetitions];
            inRegister = new double[repetitions];
            inChecks = new double[repetitions];
            inFinish = new double[repetitions];
            engineThreadsCpu = new double[repetitions];
            extraAllocated = new double[repetitions];
            extraGc = new double[repetitions];
            checkpointed = new double[repetitions];
            read = new double[repetitions];
            position = new double[repetitions];
        }

        void put(Map<String, Object> figures, String name) {
            String p = name + "_"; // the example's name as the command line takes it: shallow-water_...
            double plainS = Medians.median(plain);
            double instrumentedS = Medians.median(instrumented);
            double checkpointedS = Medians.median(checkpointed);
            double callsS = Medians.median(inIronloop);
            double engineCpuS = Medians.median(engineThreadsCpu);
            double extraGcS = Medians.median(extraGc);
            // The instrumented run adds exactly these calls to the plain one (same kernels, same tracked arrays), so
            // timing them is the overhead, with what they cause elsewhere: the engine's threads' CPU and the extra
            // garbage collection. The whole-run pairs are the cross-check, too noisy to resolve 1 % here.
            trackingPct = (callsS + engineCpuS + Math.max(0, extraGcS)) / plainS * 100;
            figures.put(p + "plain_s", plainS);
            figures.put(p + "instrumented_s", instrumentedS);
            figures.put(p + "tracking_overhead_pct", trackingPct);
            figures.put(p + "tracking_overhead_pairs_pct", (Medians.median(trackingRatio) - 1) * 100);
            figures.put(p + "tracking_overhead_pairs_pct_min", (Arrays.stream(trackingRatio).min().orElseThrow() - 1) * 100);
            figures.put(p + "tracking_overhead_pairs_pct_max", (Arrays.stream(trackingRatio).max().orElseThrow() - 1) * 100);
            figures.put(p + "tracking_runs_per_side", runsPerSide);
            figures.put(p + "instrumentation_calls_s", callsS);
            figures.put(p + "instrumentation_open_s", Medians.median(inOpen));
            figures.put(p + "instrumentation_register_s", Medians.median(inRegister));
            figures.put(p + "instrumentation_checks_s", Medians.median(inChecks));
            figures.put(p + "instrumentation_finish_s", Medians.median(inFinish));
            figures.put(p + "engine_threads_cpu_s", engineCpuS);
            figures.put(p + "extra_allocated_bytes", Medians.median(extraAllocated));
            figures.put(p + "extra_gc_s", extraGcS);
            figures.put(p + "checkpointed_s", checkpointedS);
            figures.put(p + "checkpoint_overhead_pct", (checkpointedS - plainS) / plainS * 100);
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

        private static double median(List<Double> values) {
            return values.isEmpty() ? 0.0 : Medians.median(values.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    private static AppFigures measure(String name, DeviceKind kind, int devices, String size, int repetitions, double pairSeconds, Path dir,
            PrintStream err) {
        AppFigures f = new AppFigures(repetitions);
        trackingPairs(f, name, kind, devices, size, repetitions, pairSeconds, dir, err);
        for (int r = -1; r < repetitions; r++) { // r = -1: the warm-up
            AppFigures sink = r < 0 ? new AppFigures(1) : f;
            Path folder = fresh(dir.resolve("checkpointed"));
            double checkpointed = checkpointed(name, kind, devices, size, folder, true, sink).seconds();
            double[] restart = restart(name, kind, devices, size, folder);
            if (r >= 0) {
                f.checkpointed[r] = checkpointed;
                f.read[r] = restart[0];
                f.position[r] = restart[1];
                err.printf(Locale.ROOT, "bench devices: %s repetition %d: checkpointed %.3f s, restart read %.3f s + positioning %.3f s%n",
                        name, r + 1, checkpointed, restart[0], restart[1]);
            }
        }
        return f;
    }

    /**
     * The instrumentation overhead is a difference of a percent or less between two runs of a fraction of a second,
     * smaller than the run-to-run noise of one JVM. So each side of a pair runs the example back to back until at least
     * {@code pairSeconds} have passed (the count fixed by the warm-up), the two sides alternate which goes first, and
     * the figure is the median of the per-pair ratios: drift in the machine's speed cancels within a pair.
     */
    private static void trackingPairs(AppFigures f, String name, DeviceKind kind, int devices, String size, int repetitions,
            double pairSeconds, Path dir, PrintStream err) {
        Path folder = dir.resolve("instrumented");
        plain(name, kind, devices, size); // warm-up of both sides
        checkpointed(name, kind, devices, size, fresh(folder), false, null);
        double once = plain(name, kind, devices, size).seconds();
        int runs = (int) Math.max(1, Math.ceil(pairSeconds / once));
        f.runsPerSide = runs;
        // one unrecorded pair first: the two sides pass different lambdas to the same kernel loop, and one run each was
        // not enough for the JIT to settle on both (quiet runs showed the second pair's instrumented side still at
        // the first pair's speed while its plain side had doubled: +47 % and +88 % in two runs)
        for (int i = 0; i < runs; i++) {
            plain(name, kind, devices, size);
            checkpointed(name, kind, devices, size, fresh(folder), false, null);
        }
        for (int r = 0; r < repetitions; r++) {
            boolean plainFirst = r % 2 == 0;
            List<Run> plainRuns = new ArrayList<>();
            List<Run> instrumentedRuns = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                boolean plainSide = (side == 0) == plainFirst;
                for (int k = 0; k < runs; k++) {
                    if (plainSide) {
                        plainRuns.add(plain(name, kind, devices, size));
                    } else {
                        instrumentedRuns.add(checkpointed(name, kind, devices, size, fresh(folder), false, null));
                    }
                }
            }
            Run plain = Run.mean(plainRuns);
            Run instrumented = Run.mean(instrumentedRuns);
            f.plain[r] = plain.seconds();
            f.instrumented[r] = instrumented.seconds();
            f.trackingRatio[r] = instrumented.seconds() / plain.seconds();
            f.inIronloop[r] = instrumented.inIronloopSeconds();
            f.inOpen[r] = instrumented.openSeconds();
            f.inRegister[r] = instrumented.registerSeconds();
            f.inChecks[r] = instrumented.checksSeconds();
            f.inFinish[r] = instrumented.finishSeconds();
            f.engineThreadsCpu[r] = instrumented.engineThreadsCpuSeconds();
            f.extraAllocated[r] = instrumented.allocatedBytes() - plain.allocatedBytes();
            f.extraGc[r] = instrumented.gcSeconds() - plain.gcSeconds();
            err.printf(Locale.ROOT, "bench devices: %s pair %d: %d runs each, plain %.3f s, instrumented %.3f s (%+.2f %%)%n", name, r + 1,
                    runs, f.plain[r], f.instrumented[r], (f.trackingRatio[r] - 1) * 100);
        }
    }

    /** The example with devices and tracked arrays only: no engine, no session. Times the loop and the final read. */
    private static Run plain(String name, DeviceKind kind, int count, String size) {
        DeviceApp app = DeviceApp.named(name, size);
        try (DeviceSet devices = DeviceSet.open(kind, count)) {
            Meter meter = new Meter();
            long start = System.nanoTime(); // the same span as the instrumented side: allocation to the final read
            app.allocate(count);
            app.distribute(count);
            for (long i = 0; i < app.iterations(); i++) {
                app.iterate(roundRobin(devices, count), i);
            }
            app.digest(new ResultDigest());
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Run(seconds, 0, 0, 0, 0, 0, meter.allocatedBytes(), meter.gcSeconds());
        }
    }

    /**
     * The example instrumented as {@code DeviceRank} runs it; with {@code checkpoints} false its checkpoint calls never
     * fire. Times the registration, the loop, the last write and the final read; fills {@code into} with the
     * checkpoints' costs.
     */
    private static Run checkpointed(String name, DeviceKind kind, int count, String size, Path folder, boolean checkpoints,
            AppFigures into) {
        DeviceApp app = DeviceApp.named(name, size);
        List<long[]> written = new ArrayList<>();
        EngineListener listener = new EngineListener() {
            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                synchronized (written) {
                    written.add(new long[] {sinceStart.toNanos(), bytesWritten});
                }
            }
        };
        try (DeviceSet devices = DeviceSet.open(kind, count)) {
            Meter meter = new Meter();
            long start = System.nanoTime();
            long open = 0; // the calls the plain run does not make: opening, registering, the per-iteration checks
            long register = 0;
            long checks = 0;
            long finish = 0; // awaiting the last line and closing the engine, both inside the timed span
            long t = System.nanoTime();
            CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(folder), listener);
            try {
                DeviceSession session = DeviceSession.open(engine, devices);
                LongCell iteration = new LongCell(0);
                engine.protect("settings", Scope.SETTINGS, app.settings()); // DeviceApp.setUp, with its calls timed apart
                engine.protect("iteration", Scope.GLOBAL, iteration);
                int virtual = app.distribution(session);
                open += System.nanoTime() - t;
                app.allocate(virtual);
                t = System.nanoTime();
                app.register(session);
                register += System.nanoTime() - t;
                app.distribute(session.virtualDevices());
                CheckpointPolicy policy = checkpoints ? CheckpointPolicy.everyCalls(app.checkpointEvery()) : CheckpointPolicy.never();
                List<CheckpointReport> reports = new ArrayList<>();
                int virtualDevices = session.virtualDevices();
                while (iteration.get() < app.iterations()) {
                    // DeviceRank passes session::device, which is this lookup plus a bounds check; one lambda class on
                    // both sides keeps the JIT's profile of the examples' kernel loops the same for both
                    app.iterate(roundRobin(devices, virtualDevices), iteration.get());
                    iteration.set(iteration.get() + 1);
                    t = System.nanoTime();
                    session.checkpointIfDue(iteration.get(), policy).ifPresent(reports::add);
                    checks += System.nanoTime() - t;
                }
                t = System.nanoTime();
                engine.awaitDurable();
                finish += System.nanoTime() - t;
                app.digest(new ResultDigest());
                double engineThreadsCpu = meter.ironloopThreadsCpuSeconds(); // before the close ends the writer thread
                t = System.nanoTime();
                engine.close();
                finish += System.nanoTime() - t;
                double seconds = (System.nanoTime() - start) / 1e9;
                if (into != null) {
                    into.checkpoints += reports.size();
                    into.runs++;
                    for (CheckpointReport r : reports) {
                        into.protocolMs.add(r.protocol().toNanos() / 1e6);
                        into.snapshotMs.add(r.snapshot().toNanos() / 1e6);
                        into.bytesHome += r.bytesHome();
                        into.naiveBytes += r.naiveBytes();
                    }
                    synchronized (written) {
                        for (long[] w : written) {
                            into.writeMs.add(w[0] / 1e6);
                            into.fileBytes.add((double) w[1]);
                        }
                    }
                }
                return new Run(seconds, open / 1e9, register / 1e9, checks / 1e9, finish / 1e9, engineThreadsCpu, meter.allocatedBytes(),
                        meter.gcSeconds());
            } finally {
                engine.close(); // a no-op once closed above
            }
        }
    }

    /** Virtual device v on physical device v mod count: what {@code DeviceSession.device} maps, for both sides. */
    private static IntFunction<Device> roundRobin(DeviceSet devices, int virtualDevices) {
        int physical = devices.size();
        return v -> {
            if (v >= virtualDevices) {
                throw new IndexOutOfBoundsException("virtual device " + v + " of " + virtualDevices);
            }
            return devices.get(v % physical);
        };
    }

    /**
     * One timed run of an example: its seconds; of those, the seconds spent inside Ironloop's own calls; the CPU seconds
     * the engine's threads used meanwhile; the bytes the loop's thread allocated and the seconds the collectors ran.
     */
    private record Run(double seconds, double openSeconds, double registerSeconds, double checksSeconds, double finishSeconds,
            double engineThreadsCpuSeconds, double allocatedBytes, double gcSeconds) {
        double inIronloopSeconds() {
            return openSeconds + registerSeconds + checksSeconds + finishSeconds;
        }

        static Run mean(List<Run> runs) {
            double n = runs.size();
            return new Run(runs.stream().mapToDouble(Run::seconds).sum() / n, runs.stream().mapToDouble(Run::openSeconds).sum() / n,
                    runs.stream().mapToDouble(Run::registerSeconds).sum() / n, runs.stream().mapToDouble(Run::checksSeconds).sum() / n,
                    runs.stream().mapToDouble(Run::finishSeconds).sum() / n,
                    runs.stream().mapToDouble(Run::engineThreadsCpuSeconds).sum() / n,
                    runs.stream().mapToDouble(Run::allocatedBytes).sum() / n, runs.stream().mapToDouble(Run::gcSeconds).sum() / n);
        }
    }

    /**
     * What the timed calls cannot see: the bytes the calling thread allocates (garbage a collector must later take from
     * the application), the collectors' time, and the CPU time of Ironloop's own threads (the engine's writer, idle
     * when no checkpoint fires).
     */
    private static final class Meter {
        private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private final long allocatedAtStart = THREADS.getCurrentThreadAllocatedBytes();
        private final long gcMillisAtStart = gcMillis();
        private final Map<Long, Long> ironloopCpuAtStart = ironloopThreadsCpu();

        double allocatedBytes() {
            return THREADS.getCurrentThreadAllocatedBytes() - allocatedAtStart;
        }

        double gcSeconds() {
            return (gcMillis() - gcMillisAtStart) / 1e3;
        }

        /** CPU seconds of threads named {@code ironloop-*} since this meter started (threads started since count whole). */
        double ironloopThreadsCpuSeconds() {
            long nanos = 0;
            for (Map.Entry<Long, Long> e : ironloopThreadsCpu().entrySet()) {
                nanos += e.getValue() - ironloopCpuAtStart.getOrDefault(e.getKey(), 0L);
            }
            return nanos / 1e9;
        }

        private static long gcMillis() {
            return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime)
                    .filter(t -> t > 0).sum();
        }

        private static Map<Long, Long> ironloopThreadsCpu() {
            Map<Long, Long> cpu = new HashMap<>();
            for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
                if (info != null && info.getThreadName().startsWith("ironloop-")) {
                    long nanos = THREADS.getThreadCpuTime(info.getThreadId());
                    if (nanos >= 0) {
                        cpu.put(info.getThreadId(), nanos);
                    }
                }
            }
            return cpu;
        }
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

    private static Path fresh(Path dir) {
        try {
            Folders.deleteTree(dir);
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }
}
