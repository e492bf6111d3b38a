package io.ironloop.examples.device;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.DeviceSet;
import io.ironloop.device.RestartReport;
import io.ironloop.examples.ResultDigest;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.RuntimeKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The heterogeneous examples as one process: {@code DeviceRank APP [test|demo] [--device java|opencl] [--devices K]
 * [--restart-devices K2]}, APP one of {@code spmv}, {@code floyd}, {@code summa}, {@code shallow-water}. Run it
 * alone or under {@code ironloop run -n 1 --restarts R} (or {@code ironloop demo APP}): checkpoints go to
 * FT_FOLDER (the parameter file's, {@code IRONLOOP_FT_FOLDER}, or {@code ./ironloop-data}); a later start resumes
 * from the newest line, on the devices it is given — K2 of them in a restarted attempt ({@code IRONLOOP_ATTEMPT}
 * above 0) when {@code --restart-devices} is set. Progress goes to standard error; the last standard-output line is
 * {@code result sha256=<hex>}, the same on every device kind and number of devices.
 *
 * <p>Restart re-executes the setup code: the devices are opened, the arrays built and registered, and the kernels
 * compiled again; only host images and host scalars come from the checkpoint.
 */
public final class DeviceRank {
    /** System property: print {@code iteration N} on standard error as each iteration's kernels are launched (for tests). */
    public static final String TRACE_PROPERTY = "ironloop.examples.trace";

    private DeviceRank() {
    }

    /** Entry point; exits 2 on bad arguments. */
    public static void main(String[] args) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("DeviceRank: " + e.getMessage());
            System.err.println("usage: DeviceRank spmv|floyd|summa|shallow-water [test|demo] [--device java|opencl] [--devices K]"
                    + " [--restart-devices K2]");
            System.exit(2);
            return;
        }
        System.out.println(ResultDigest.LINE_PREFIX + run(o, parameters()));
    }

    /** Runs (or resumes) the example and returns the hex digest of its result. */
    static String run(Options o, Parameters params) {
        RuntimeEvents events = RuntimeEvents.withProvidedSubscribers(() -> 0); // the launcher's, under ironloop run
        int attempt = LaunchEnvironment.current().map(LaunchEnvironment::attempt).orElse(0);
        int count = attempt > 0 && o.restartDevices() != null ? o.restartDevices() : o.devices();
        DeviceApp app = o.create();
        Path folder = params.get(EngineKeys.FT_FOLDER);
        EngineListener durable = new EngineListener() {
            /** The blocking time of snapshots whose line is not durable yet, by iteration. */
            private final Map<Long, Duration> blocking = new java.util.concurrent.ConcurrentHashMap<>();

            @Override
            public void checkpointSnapshotted(String series, long iteration, Duration blocked, long stagedBytes) {
                blocking.put(iteration, blocked);
            }

            @Override
            public void checkpointFailed(String series, long iteration, Throwable cause) {
                blocking.remove(iteration);
            }

            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                events.publish(new RuntimeEvent.Saved(RuntimeEvent.StateKind.GLOBAL, line.iteration(), RuntimeEvent.Saved.DISK,
                        sinceStart, blocking.getOrDefault(line.iteration(), Duration.ZERO), bytesWritten));
                blocking.remove(line.iteration());
            }
        };
        try (DeviceSet devices = DeviceSet.open(o.kind(), count);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.from(params).build(), Store.directory(folder), durable)) {
            System.err.println(o.app() + ": " + app.describe() + " on " + devices + ": "
                    + devices.list().stream().map(d -> d.name()).collect(Collectors.joining(", ")));
            DeviceSession session = DeviceSession.open(engine, devices);
            LongCell iteration = new LongCell(0);
            app.setUp(session, iteration);
            Optional<RestartReport> restart = session.restore();
            restart.ifPresent(r -> {
                System.err.println(o.app() + ": " + r.describe());
                events.publish(new RuntimeEvent.Restored(RuntimeEvent.StateKind.GLOBAL, r.line().iteration()));
                events.publish(new RuntimeEvent.Reported("devices", Map.of("message", r.describe())));
            });
            app.distribute(session.virtualDevices());
            events.publish(new RuntimeEvent.Planned(app.iterations()));
            CheckpointPolicy policy = CheckpointPolicy.everyCalls(app.checkpointEvery());
            boolean trace = Boolean.getBoolean(TRACE_PROPERTY);
            while (iteration.get() < app.iterations()) {
                events.publish(new RuntimeEvent.IterationStarted(iteration.get()));
                app.iterate(session::device, iteration.get());
                if (trace) {
                    System.err.println("iteration " + iteration.get());
                }
                iteration.set(iteration.get() + 1);
                session.checkpointIfDue(iteration.get(), policy).ifPresent(r -> System.err.printf(Locale.ROOT,
                        "%s: checkpoint at iteration %d: brought home %s (%d of %d bytes), protocol %.1f ms, snapshot %.1f ms%n",
                        o.app(), r.iteration(), r.broughtHome(), r.bytesHome(), r.naiveBytes(), r.protocol().toNanos() / 1e6,
                        r.snapshot().toNanos() / 1e6));
            }
            engine.awaitDurable();
            ResultDigest digest = new ResultDigest();
            app.digest(digest);
            digest.putLong(iteration.get());
            return digest.hex();
        }
    }

    private static Parameters parameters() {
        String file = System.getenv(LaunchEnvironment.PARAMS);
        try {
            return Parameters.load(RuntimeKeys.TABLE, file == null || file.isBlank() ? null : Path.of(file), System.getenv(), Map.of());
        } catch (ConfigurationException e) {
            System.err.println("DeviceRank: " + e.getMessage());
            System.exit(2);
            throw e;
        }
    }

    /** The command line: the app, its size, the device kind and the numbers of devices. */
    record Options(String app, String size, DeviceKind kind, int devices, Integer restartDevices) {
        static Options parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("name an app");
            }
            String app = args[0];
            String size = "demo";
            DeviceKind kind = DeviceKind.JAVA;
            int devices = 1;
            Integer restartDevices = null;
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "test", "demo" -> size = args[i];
                    case "--device" -> kind = switch (value(args, ++i)) {
                        case "java" -> DeviceKind.JAVA;
                        case "opencl" -> DeviceKind.OPENCL;
                        default -> throw new IllegalArgumentException("--device must be java or opencl, not " + args[i]);
                    };
                    case "--devices" -> devices = positive(args, ++i);
                    case "--restart-devices" -> restartDevices = positive(args, ++i);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            Options o = new Options(app, size, kind, devices, restartDevices);
            o.create();
            return o;
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException(args[i - 1] + " needs a value");
            }
            return args[i];
        }

        private static int positive(String[] args, int i) {
            try {
                int n = Integer.parseInt(value(args, i));
                if (n < 1) {
                    throw new IllegalArgumentException(args[i - 1] + " must be at least 1, got " + n);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(args[i - 1] + " needs a number, got " + args[i]);
            }
        }

        DeviceApp create() {
            return DeviceApp.named(app, size);
        }
    }
}
