package io.ironloop.examples.device;

import io.ironloop.core.LongCell;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceSession;
import io.ironloop.examples.ResultDigest;
import io.ironloop.format.Scope;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One heterogeneous example, in the steps {@link DeviceRank} drives (and the device benchmark, which also runs
 * them without any checkpointing): choose the number of (virtual) devices, allocate the host images, register what
 * is live at a checkpoint, split the work over the devices after the restore, launch one iteration, digest the
 * result. All but the registration are setup code that a restart runs again.
 */
public interface DeviceApp {
    /** The example names, as {@link #named} takes them. */
    List<String> NAMES = List.of("spmv", "floyd", "summa", "shallow-water");

    /** The sizes, as {@link #named} takes them. */
    List<String> SIZES = List.of("test", "demo", "bench");

    /**
     * The example {@code name} at {@code size} ({@code test}: tens of milliseconds on two cores, {@code demo}: about a
     * second, {@code bench}: a few seconds, long enough for {@code bench devices} to compare whole runs).
     *
     * @throws IllegalArgumentException for an unknown name or size
     */
    static DeviceApp named(String name, String size) {
        if (!SIZES.contains(size)) {
            throw new IllegalArgumentException("size must be one of " + SIZES + ", not " + size);
        }
        boolean test = size.equals("test");
        boolean bench = size.equals("bench");
        return switch (name) {
            case "spmv" -> test ? new Spmv(8192, 60) : new Spmv(65536, bench ? 2000 : 400);
            case "floyd" -> test ? new Floyd(192) : new Floyd(bench ? 1024 : 512);
            case "summa" -> test ? new Summa(192) : new Summa(bench ? 960 : 640);
            case "shallow-water" -> test ? new ShallowWater(96, 96, 60) : new ShallowWater(256, 256, bench ? 1000 : 300);
            default -> throw new IllegalArgumentException("unknown app " + name + ": " + String.join(", ", NAMES));
        };
    }

    /** The problem in words, e.g. "512 x 512 doubles, 64 panels". */
    String describe();

    /** The sizes that make a checkpoint of this app restorable (the engine's settings entry). */
    int[] settings();

    long iterations();

    /** Iterations between two checkpoints. */
    int checkpointEvery();

    /**
     * The number of devices to distribute over: the session's physical devices for a malleable application; a
     * pseudo-malleable one registers its distribution ({@link DeviceSession#preserveDistribution}) and gets the
     * saved number back on a restart.
     */
    default int distribution(DeviceSession session) {
        return session.virtualDevices();
    }

    /** Allocates the host images (and host state) for {@code devices} (virtual) devices. */
    void allocate(int devices);

    /** Registers what is live at a checkpoint. Runs before the restore. */
    void register(DeviceSession session);

    /** Splits the work over {@code devices} (virtual) devices. Runs after the restore. */
    void distribute(int devices);

    /** Launches iteration {@code iteration}'s kernels (and host work); virtual device v runs on {@code device.apply(v)}. */
    void iterate(IntFunction<Device> device, long iteration);

    /**
     * The setup code before a restore, as every run of an example does it: registers the settings and the iteration
     * counter, chooses the number of devices, allocates and registers the arrays.
     */
    default void setUp(DeviceSession session, LongCell iteration) {
        session.engine().protect("settings", Scope.SETTINGS, settings());
        session.engine().protect("iteration", Scope.GLOBAL, iteration);
        allocate(distribution(session));
        register(session);
    }

    /** Feeds the final state to {@code digest} (through host access, which brings it home). */
    void digest(ResultDigest digest);

    static void putInts(ResultDigest digest, int[] values) {
        for (int v : values) {
            digest.putLong(v);
        }
    }

    static void putFloats(ResultDigest digest, float[] values) {
        for (float v : values) {
            digest.putLong(Float.floatToRawIntBits(v));
        }
    }
}
