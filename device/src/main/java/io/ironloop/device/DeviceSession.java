package io.ironloop.device;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.LineInfo;
import io.ironloop.core.LongCell;
import io.ironloop.format.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints of a heterogeneous application (CPPC + HPL): host-side checkpoints between kernel launches that
 * save the host images of the registered {@link DeviceArray}s, never device buffers, programs or handles.
 *
 * <p>{@link #checkpoint} runs the consistency protocol — it brings home exactly the registered arrays (or parts)
 * whose newest copy is on a device, waiting for the kernels that produce them — and then snapshots through the
 * engine's two-phase write, so the file is written in the background while kernels run on. The files are the
 * engine's portable format: a restart may use another host, device kind or number of devices.
 *
 * <p>Restart is re-execution of the setup code (CPPC's recovery of non-portable state): open the devices, build
 * the arrays, register them, then {@link #restore()}; kernels compile again on first launch. An application
 * that registered only whole arrays is {@linkplain Adaptability#MALLEABLE malleable} and re-splits them over the
 * devices it now has; one that called {@link #preserveDistribution} is
 * {@linkplain Adaptability#PSEUDO_MALLEABLE pseudo-malleable} and gets its saved number of virtual devices back
 * ({@link #virtualDevices()}), mapped onto the physical ones by {@link #device(int)}.
 *
 * <p>Threading: the application's host thread only.
 */
public final class DeviceSession {
    /** Entry holding the number of physical devices of the run that wrote a line. */
    public static final String DEVICE_COUNT_ENTRY = "ironloop.device.count";
    /** Entry holding the device kind (its ordinal) of the run that wrote a line. */
    public static final String DEVICE_KIND_ENTRY = "ironloop.device.kind";
    /** Entry holding a pseudo-malleable application's number of virtual devices. */
    public static final String VIRTUAL_DEVICES_ENTRY = "ironloop.device.virtual";

    /** The logger, obtained on first use: a run with nothing to log never initialises SLF4J (its provider lookup scans the class path). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(DeviceSession.class);
    }

    private final CheckpointEngine engine;
    private final DeviceSet devices;
    private final Map<String, DeviceArray<?>> arrays = new LinkedHashMap<>();
    private final LongCell deviceCount;
    private final LongCell deviceKind;
    private LongCell virtualDevices;

    private DeviceSession(CheckpointEngine engine, DeviceSet devices) {
        this.engine = engine;
        this.devices = devices;
        this.deviceCount = new LongCell(devices.size());
        this.deviceKind = new LongCell(devices.kind().ordinal());
        engine.protect(DEVICE_COUNT_ENTRY, Scope.LOCAL, deviceCount);
        engine.protect(DEVICE_KIND_ENTRY, Scope.LOCAL, deviceKind);
    }

    /**
     * A session over {@code engine} for an application running on {@code devices}. Registers two small entries of
     * its own ({@value #DEVICE_COUNT_ENTRY}, {@value #DEVICE_KIND_ENTRY}) that let a restart say where a line
     * came from; neither is a setting, so a restart on other devices is allowed.
     */
    public static DeviceSession open(CheckpointEngine engine, DeviceSet devices) {
        return new DeviceSession(Objects.requireNonNull(engine, "engine"), Objects.requireNonNull(devices, "devices"));
    }

    /**
     * Registers the whole host image of {@code array} under {@code name}, a typed entry of the engine like any
     * other array: its parts, whatever their number, are what the consistency protocol tracks.
     *
     * @throws IllegalArgumentException if {@code array} is a part (register the whole array) or the name is taken
     */
    public <A> void protect(String name, Scope scope, DeviceArray<A> array) {
        Objects.requireNonNull(array, "array");
        if (array.isPart()) {
            throw new IllegalArgumentException(array.name() + " is a part: register the whole array, so that a restart can"
                    + " split it over another number of devices");
        }
        if (arrays.containsKey(name)) {
            throw new IllegalArgumentException("a device array is already registered as " + name);
        }
        array.elements().protect(engine, name, scope, array.image());
        arrays.put(name, array);
    }

    /**
     * Declares that the saved state is laid out for a number of devices (per-device partial results, a
     * decomposition that must not change): the application becomes pseudo-malleable. Call it before allocating
     * the state whose shape depends on that number: it returns the number to use, which is the saved one when a
     * line exists (whatever the number of physical devices now) and {@code count} otherwise. Finding the saved
     * number reads the newest line once more than a malleable restart does.
     *
     * @return the number of virtual devices to distribute over (also {@link #virtualDevices()})
     * @throws IllegalArgumentException if count is not positive
     * @throws IllegalStateException if called twice
     */
    public int preserveDistribution(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a distribution needs at least one device, got " + count);
        }
        if (virtualDevices != null) {
            throw new IllegalStateException("preserveDistribution was already called (with " + virtualDevices.get() + ")");
        }
        long saved = engine.read()
                .filter(state -> state.names().contains(VIRTUAL_DEVICES_ENTRY))
                .map(state -> state.longs(VIRTUAL_DEVICES_ENTRY)[0])
                .orElse((long) count);
        virtualDevices = new LongCell(saved);
        engine.protect(VIRTUAL_DEVICES_ENTRY, Scope.LOCAL, virtualDevices);
        return (int) saved;
    }

    /** Malleable unless {@link #preserveDistribution} was called. */
    public Adaptability adaptability() {
        return virtualDevices == null ? Adaptability.MALLEABLE : Adaptability.PSEUDO_MALLEABLE;
    }

    /** The number of devices to distribute work over: the physical devices, or a pseudo-malleable application's virtual ones. */
    public int virtualDevices() {
        return virtualDevices == null ? devices.size() : (int) virtualDevices.get();
    }

    /** The physical device that runs virtual device {@code index}: round robin over the devices there are. */
    public Device device(int index) {
        if (index < 0 || index >= virtualDevices()) {
            throw new IndexOutOfBoundsException("virtual device " + index + " of " + virtualDevices());
        }
        return devices.get(index % devices.size());
    }

    /** The devices of this run. */
    public DeviceSet devices() {
        return devices;
    }

    /** The engine, for host-only state (scalars, settings). */
    public CheckpointEngine engine() {
        return engine;
    }

    /**
     * Restores the newest complete line into the registered host images, makes the host the holder of every
     * array's newest copy (device copies are stale and are refilled lazily), and logs the restart's adaptability.
     *
     * @return what was restored and how the devices map, or empty when there is no line
     * @see CheckpointEngine#restore() for the exceptions
     */
    public Optional<RestartReport> restore() {
        Optional<LineInfo> line = engine.restore();
        if (line.isEmpty()) {
            return Optional.empty();
        }
        arrays.values().forEach(DeviceArray::restored);
        RestartReport report = new RestartReport(line.get(), adaptability(), (int) deviceCount.get(),
                DeviceKind.values()[(int) deviceKind.get()], devices.size(), devices.kind(), virtualDevices());
        deviceCount.set(devices.size());
        deviceKind.set(devices.kind().ordinal());
        Log.LOG.info(report.describe());
        return Optional.of(report);
    }

    /**
     * Takes a checkpoint at {@code iteration}: brings home exactly the registered arrays whose newest copy is on a
     * device, then snapshots through the engine (which persists in the background). Call it in host code between
     * kernel launches.
     *
     * @throws io.ironloop.core.CheckpointFailedException if an earlier background write failed
     * @throws DeviceLostException if the newest copy of a registered array is on a device that failed
     */
    public CheckpointReport checkpoint(long iteration) {
        long start = System.nanoTime();
        List<String> home = new ArrayList<>();
        long bytes = 0;
        long naive = 0;
        for (DeviceArray<?> a : arrays.values()) {
            bytes += a.bringHome(part -> home.add(part.name()));
            naive += a.byteSize();
        }
        long protocolEnd = System.nanoTime();
        engine.checkpoint(iteration);
        long end = System.nanoTime();
        return new CheckpointReport(iteration, home, bytes, naive, Duration.ofNanos(protocolEnd - start), Duration.ofNanos(end - protocolEnd));
    }

    /**
     * Takes a checkpoint if {@code policy} says one is due, and tells the policy.
     *
     * @return the checkpoint's report, or empty when none was due
     */
    public Optional<CheckpointReport> checkpointIfDue(long iteration, CheckpointPolicy policy) {
        long now = System.nanoTime();
        if (!policy.due(now)) {
            return Optional.empty();
        }
        CheckpointReport report = checkpoint(iteration);
        policy.taken(now, engine.lastCost());
        return Optional.of(report);
    }
}
