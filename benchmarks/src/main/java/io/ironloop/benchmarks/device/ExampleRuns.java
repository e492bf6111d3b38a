package io.ironloop.benchmarks.device;

import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.device.CheckpointReport;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.DeviceSet;
import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.device.DeviceApp;
import io.ironloop.format.Scope;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * One timed run of a device example, as the bench compares them: <em>plain</em> (devices and tracked arrays only, no
 * engine) or <em>instrumented</em> (engine, session, registrations, checkpoint calls), in this JVM or in a JVM of its
 * own ({@link #inFreshJvm}). A fresh JVM is what a user's run is: both sides pay their own class loading and JIT
 * warm-up, and the instrumented one also loads and opens the engine, so the comparison of whole runs includes all of
 * it and no run inherits another's compiled code or heap.
 */
final class ExampleRuns {
    /**
     * Classes whose jars (or class folders) make a device application's class path: the example and this runner, the
     * device module and what it needs at run time, and the SLF4J binding this JVM uses. The {@code ironloop} command's
     * own class path holds some 190 jars (cloud stores, metrics, the group's transport); SLF4J's provider lookup opens
     * every one of them, which a device application does not pay.
     */
    private static final List<String> APPLICATION_CLASSES = List.of("io.ironloop.benchmarks.device.ExampleRuns",
            "io.ironloop.benchmarks.Medians", "io.ironloop.examples.device.DeviceApp", "io.ironloop.examples.ResultDigest",
            "io.ironloop.device.Device", "io.ironloop.core.CheckpointEngine", "io.ironloop.format.Scope", "io.ironloop.Folders",
            "com.fasterxml.jackson.databind.ObjectMapper", "com.fasterxml.jackson.core.JsonFactory",
            "com.fasterxml.jackson.annotation.JsonProperty", "org.slf4j.LoggerFactory", "org.jocl.CL", "com.github.luben.zstd.Zstd",
            "net.jpountz.lz4.LZ4Factory");

    /** The line a run in a JVM of its own prints its {@link Run} on, before the numbers. */
    static final String LINE = "ironloop-device-run ";

    /** The two sides of the tracking-overhead comparison. */
    enum Side {
        /** Devices and tracked arrays only. */
        PLAIN,
        /** Also the engine, the session, the registrations and a checkpoint check per iteration that never fires. */
        INSTRUMENTED
    }

    private ExampleRuns() {
    }

    /**
     * Runs {@code side} of example {@code name} once in a new JVM (this JVM's {@code java}, default options, a device
     * application's class path: {@link #applicationClassPath}) and returns what it measured. The child prints one {@link #LINE}; its standard error goes to this
     * process's.
     *
     * @param folder the instrumented side's checkpoint folder (emptied first; never written, its policy never fires)
     * @throws IllegalStateException if the child JVM fails; it is destroyed if this thread is interrupted
     */
    static Run inFreshJvm(Side side, String name, DeviceKind kind, int count, String size, Path folder) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-cp", applicationClassPath(), ExampleRuns.class.getName(),
                side.name(), name, kind.name(), Integer.toString(count), size, folder.toString());
        Process p = null;
        try {
            p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            p.getOutputStream().close();
            Run run = null;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(LINE)) {
                        run = Run.parse(line);
                    }
                }
            }
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || run == null) {
                throw new IllegalStateException("the " + side.name().toLowerCase(Locale.ROOT) + " run of " + name + " in JVM pid " + p.pid()
                        + " failed (exit " + (p.isAlive() ? "none yet" : p.exitValue()) + "): see its messages above");
            }
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a JVM for a run of " + name + ": " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a run of " + name + " was measured", e);
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    /** The jars (or class folders) of {@link #APPLICATION_CLASSES} and of this JVM's SLF4J binding, as a class path. */
    static String applicationClassPath() {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : APPLICATION_CLASSES) {
            try {
                classes.add(Class.forName(name, false, ExampleRuns.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("a device application needs " + name + ", which is not on this JVM's class path", e);
            }
        }
        classes.add(LoggerFactory.getILoggerFactory().getClass());
        return classes.stream().map(ExampleRuns::location).distinct().collect(Collectors.joining(File.pathSeparator));
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }

    /** A run in a JVM of its own: {@code PLAIN|INSTRUMENTED app JAVA|OPENCL devices size folder}; prints one {@link #LINE}. */
    public static void main(String[] args) {
        Side side = Side.valueOf(args[0]);
        DeviceKind kind = DeviceKind.valueOf(args[2]);
        int count = Integer.parseInt(args[3]);
        Run run = side == Side.PLAIN ? plain(args[1], kind, count, args[4])
                : checkpointed(args[1], kind, count, args[4], DeviceBench.fresh(Path.of(args[5])), false, null);
        System.out.println(run.format());
        System.out.flush();
        System.exit(0);
    }

    /** The example with devices and tracked arrays only: no engine, no session. Times the loop and the final read. */
    static Run plain(String name, DeviceKind kind, int count, String size) {
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
            return new Run(seconds, meter.cpuSeconds(), meter.processCpuSeconds(), 0, 0, 0, 0, 0, meter.allocatedBytes(), meter.gcSeconds());
        }
    }

    /**
     * The example instrumented as {@code DeviceRank} runs it; with {@code checkpoints} false its checkpoint calls never
     * fire. Times the registration, the loop, the last write and the final read; fills {@code into} with the
     * checkpoints' costs.
     */
    static Run checkpointed(String name, DeviceKind kind, int count, String size, Path folder, boolean checkpoints,
            DeviceBench.AppFigures into) {
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
                return new Run(seconds, meter.cpuSeconds(), meter.processCpuSeconds(), open / 1e9, register / 1e9, checks / 1e9, finish / 1e9,
                        engineThreadsCpu, meter.allocatedBytes(), meter.gcSeconds());
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
     * One timed run of an example: its seconds, the calling thread's CPU seconds and the whole process's (kernels on the
     * Java device's pool or in PoCL's threads, the JIT, the collectors: all this JVM consumed); of the seconds, those
     * spent inside Ironloop's own calls (opening, registering, the per-iteration checks, awaiting and closing); the CPU seconds the
     * engine's threads used meanwhile; the bytes the loop's thread allocated and the seconds the collectors ran.
     */
    record Run(double seconds, double cpuSeconds, double processCpuSeconds, double openSeconds, double registerSeconds,
            double checksSeconds, double finishSeconds, double engineThreadsCpuSeconds, double allocatedBytes, double gcSeconds) {
        double inIronloopSeconds() {
            return openSeconds + registerSeconds + checksSeconds + finishSeconds;
        }

        /** The fixed part of {@link #inIronloopSeconds}: all but the per-iteration checks. */
        double fixedSeconds() {
            return openSeconds + registerSeconds + finishSeconds;
        }

        PairedRuns.Sample sample() {
            return new PairedRuns.Sample(seconds, cpuSeconds);
        }

        /** The numbers, space-separated, as a run in a JVM of its own prints them after {@link #LINE}. */
        String format() {
            return LINE + Stream.of(seconds, cpuSeconds, processCpuSeconds, openSeconds, registerSeconds, checksSeconds, finishSeconds,
                    engineThreadsCpuSeconds, allocatedBytes, gcSeconds).map(d -> Double.toString(d)).collect(Collectors.joining(" "));
        }

        static Run parse(String line) {
            double[] v = Arrays.stream(line.substring(LINE.length()).trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
            return new Run(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
        }
    }

    /**
     * What the timed calls cannot see: the bytes the calling thread allocates (garbage a collector must later take from
     * the application), the collectors' time, and the CPU time of Ironloop's own threads (the engine's writer, idle
     * when no checkpoint fires).
     */
    private static final class Meter {
        private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private static final com.sun.management.OperatingSystemMXBean PROCESS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final long processCpuAtStart = PROCESS.getProcessCpuTime();
        private final long cpuAtStart = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
        private final long allocatedAtStart = THREADS.getCurrentThreadAllocatedBytes();
        private final long gcMillisAtStart = gcMillis();
        private final Map<Long, Long> ironloopCpuAtStart = ironloopThreadsCpu();

        /** CPU seconds of the calling thread since this meter started (0 where the JVM cannot tell). */
        double cpuSeconds() {
            return THREADS.isCurrentThreadCpuTimeSupported() ? (THREADS.getCurrentThreadCpuTime() - cpuAtStart) / 1e9 : 0;
        }

        /** CPU seconds of the whole process since this meter started (every thread: kernels, the JIT, the collectors). */
        double processCpuSeconds() {
            return (PROCESS.getProcessCpuTime() - processCpuAtStart) / 1e9;
        }

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
}
