package io.ironloop.device;

import io.ironloop.device.internal.Backend;
import io.ironloop.device.internal.JavaBackend;
import io.ironloop.device.internal.OpenClPlatform;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The devices an application runs on, all of one {@link DeviceKind}. Opening them is setup code: after a
 * restart it runs again (perhaps with another kind or number of devices), because devices, their buffers and
 * their compiled kernels are never part of a checkpoint.
 *
 * <p>Closing releases every device's buffers, programs and threads. Used by one host thread.
 */
public final class DeviceSet implements AutoCloseable, Iterable<Device> {
    private final DeviceKind kind;
    private final List<Device> devices;

    private DeviceSet(DeviceKind kind, List<Device> devices) {
        this.kind = kind;
        this.devices = List.copyOf(devices);
    }

    /**
     * Opens {@code count} devices of {@code kind}: pure-Java devices, or OpenCL devices (the platform's devices,
     * or equal sub-devices of one device when there are fewer).
     *
     * @throws OpenClUnavailableException if OpenCL is asked for and cannot give {@code count} devices
     * @throws IllegalArgumentException if count is not positive
     */
    public static DeviceSet open(DeviceKind kind, int count, DeviceOptions options) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(options, "options");
        if (count < 1) {
            throw new IllegalArgumentException("at least one device is needed, got " + count);
        }
        List<Backend> backends;
        if (kind == DeviceKind.JAVA) {
            int threads = options.javaThreads() > 0 ? options.javaThreads()
                    : Math.max(1, Runtime.getRuntime().availableProcessors() / count);
            backends = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                backends.add(new JavaBackend("java:" + i + " (" + threads + (threads == 1 ? " thread)" : " threads)"), threads));
            }
        } else {
            backends = OpenClPlatform.open(count);
        }
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            devices.add(new Device(backends.get(i), i, options.checked()));
        }
        return new DeviceSet(kind, devices);
    }

    /** {@link #open(DeviceKind, int, DeviceOptions)} with the default options. */
    public static DeviceSet open(DeviceKind kind, int count) {
        return open(kind, count, DeviceOptions.defaults());
    }

    /** Why OpenCL devices cannot be opened on this machine, or empty when they can. */
    public static Optional<String> openClUnavailableReason() {
        return OpenClPlatform.unavailableReason();
    }

    public DeviceKind kind() {
        return kind;
    }

    public int size() {
        return devices.size();
    }

    public Device get(int index) {
        return devices.get(index);
    }

    /** The devices, in index order. */
    public List<Device> list() {
        return devices;
    }

    @Override
    public Iterator<Device> iterator() {
        return devices.iterator();
    }

    /** Waits for every device's queue. */
    public void finish() {
        devices.forEach(Device::finish);
    }

    /** Bytes and launches over all devices. */
    public TransferStats stats() {
        long up = 0, down = 0, ups = 0, downs = 0, launches = 0;
        for (Device d : devices) {
            TransferStats s = d.stats();
            up += s.bytesToDevice();
            down += s.bytesToHost();
            ups += s.transfersToDevice();
            downs += s.transfersToHost();
            launches += s.launches();
        }
        return new TransferStats(up, down, ups, downs, launches);
    }

    @Override
    public void close() {
        devices.forEach(Device::close);
    }

    @Override
    public String toString() {
        return size() + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + " device" + (size() == 1 ? "" : "s");
    }
}
