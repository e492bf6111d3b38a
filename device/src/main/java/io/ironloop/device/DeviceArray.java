package io.ironloop.device;

import io.ironloop.device.internal.Elements;
import io.ironloop.device.internal.KernelThreads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An array shared by the host and devices (HPL's {@code Array}): one host image plus a buffer on each device that
 * used it, and which of these copies are current. Transfers are lazy: a kernel that reads the array gets it
 * copied only when its device's copy is stale; a kernel that writes it makes every other copy stale; reading it
 * on the host ({@link #host}) brings the newest copy home, writing it on the host makes the devices' copies stale.
 *
 * <p>A malleable application keeps one unified host image and {@link #split} it into parts, one per device: each
 * part is tracked on its own over a contiguous range of the image, and the whole array is what is checkpointed,
 * so a restart can split it over another number of devices.
 *
 * <p>Threading: used by one host thread. Created with {@code of} from a primitive array that becomes its host
 * image; do not touch that array directly — go through {@link #host}.
 *
 * @param <A> the primitive array type: {@code double[]}, {@code float[]}, {@code int[]} or {@code long[]}
 */
public final class DeviceArray<A> {
    private final String name;
    private final Elements<A> elements;
    private final A image;
    private final int offset;
    private final int length;
    private final DeviceArray<A> whole;
    private List<DeviceArray<A>> parts = List.of();
    private boolean hostCurrent = true;
    private final Map<Device, Object> buffers = new IdentityHashMap<>();
    private final Set<Device> current = Collections.newSetFromMap(new IdentityHashMap<>());

    private DeviceArray(String name, Elements<A> elements, A image, int offset, int length, DeviceArray<A> whole) {
        this.name = name;
        this.elements = elements;
        this.image = image;
        this.offset = offset;
        this.length = length;
        this.whole = whole;
    }

    private static <A> DeviceArray<A> root(String name, Elements<A> elements, A image) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(image, "image");
        return new DeviceArray<>(name, elements, image, 0, elements.length(image), null);
    }

    /** An array whose host image is {@code image} (not copied). */
    public static DeviceArray<double[]> of(String name, double[] image) {
        return root(name, Elements.DOUBLE, image);
    }

    /** An array whose host image is {@code image} (not copied). */
    public static DeviceArray<float[]> of(String name, float[] image) {
        return root(name, Elements.FLOAT, image);
    }

    /** An array whose host image is {@code image} (not copied). */
    public static DeviceArray<int[]> of(String name, int[] image) {
        return root(name, Elements.INT, image);
    }

    /** An array whose host image is {@code image} (not copied). */
    public static DeviceArray<long[]> of(String name, long[] image) {
        return root(name, Elements.LONG, image);
    }

    /** The name, e.g. {@code c}, or {@code c[1]} for part 1 of {@code c}. */
    public String name() {
        return name;
    }

    /** Number of elements (of this part, for a part). */
    public int length() {
        return length;
    }

    /** Size in bytes (of this part, for a part). */
    public long byteSize() {
        return (long) length * elements.bytes();
    }

    /** The element type's Java name: {@code double}, {@code float}, {@code int} or {@code long}. */
    public String elementType() {
        return elements.typeName();
    }

    /** This part's first element in the whole array's host image (0 for a whole array). */
    public int offset() {
        return offset;
    }

    /** Whether this is a part of a split array. */
    public boolean isPart() {
        return whole != null;
    }

    /**
     * The host image, made consistent for {@code intent}: {@link Intent#READ} and {@link Intent#READ_WRITE} first
     * bring home every part whose newest copy is on a device (waiting for the kernels that produce it);
     * {@link Intent#WRITE} and {@link Intent#READ_WRITE} make the devices' copies stale, so the next kernel that
     * reads the array gets the host's version. Do not keep the returned array across a kernel launch.
     *
     * @throws IllegalStateException if this is a part (go through the whole array)
     * @throws KernelContractException if called from inside a Java kernel (pass the array as an argument instead)
     * @throws DeviceLostException if the newest copy was on a device that failed
     */
    public A host(Intent intent) {
        Objects.requireNonNull(intent, "intent");
        String kernel = KernelThreads.current();
        if (kernel != null) {
            throw new KernelContractException("kernel " + kernel + " reached array " + name + " through the host: pass it as an"
                    + " argument with its intent (Arg.read/write/readWrite) instead");
        }
        if (whole != null) {
            throw new IllegalStateException(name + " is a part of " + whole.name + ": access the host image through " + whole.name);
        }
        if (intent.reads()) {
            bringHome(d -> { });
        }
        if (intent.writes()) {
            for (DeviceArray<A> a : tracked()) {
                a.hostCurrent = true;
                a.current.clear();
            }
        }
        return image;
    }

    /**
     * Splits the array into {@code count} contiguous parts of (nearly) equal length, in order, each tracked on its
     * own; earlier parts are brought home and released first. The whole array is still what a checkpoint saves.
     *
     * @throws IllegalArgumentException if count is not positive
     * @throws IllegalStateException if this is already a part
     */
    public List<DeviceArray<A>> split(int count) {
        return split(count, 1);
    }

    /**
     * Splits the array into {@code count} parts whose lengths are multiples of {@code granule} (e.g. a row length,
     * so that parts hold whole rows), as equal as that allows.
     *
     * @throws IllegalArgumentException if count is not positive or the length is not a multiple of granule
     */
    public List<DeviceArray<A>> split(int count, int granule) {
        if (count < 1 || granule < 1 || length % granule != 0) {
            throw new IllegalArgumentException("cannot split " + name + " (" + length + " elements) into " + count
                    + " parts of multiples of " + granule + " elements");
        }
        if (whole != null) {
            throw new IllegalStateException(name + " is already a part; split " + whole.name + " instead");
        }
        join();
        bringHome(d -> { });
        releaseBuffers();
        int units = length / granule;
        List<DeviceArray<A>> made = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            int from = (int) ((long) units * p / count) * granule;
            int to = (int) ((long) units * (p + 1) / count) * granule;
            made.add(new DeviceArray<>(name + "[" + p + "]", elements, image, from, to - from, this));
        }
        parts = List.copyOf(made);
        return parts;
    }

    /** Undoes {@link #split}: brings the parts home and releases their buffers. Does nothing if not split. */
    public void join() {
        if (parts.isEmpty()) {
            return;
        }
        bringHome(d -> { });
        for (DeviceArray<A> p : parts) {
            p.releaseBuffers();
        }
        parts = List.of();
        hostCurrent = true;
    }

    /** The parts of the last {@link #split}, or an empty list. */
    public List<DeviceArray<A>> parts() {
        return parts;
    }

    /** Whether the host image holds the newest version of every element (of every part of a split array). */
    public boolean isCurrentOnHost() {
        for (DeviceArray<A> a : tracked()) {
            if (!a.hostCurrent) {
                return false;
            }
        }
        return true;
    }

    /** The devices holding a current copy of this array (or part). */
    public Set<Device> currentOn() {
        return Set.copyOf(current);
    }

    @Override
    public String toString() {
        return name + " (" + length + " " + elements.typeName() + "s)";
    }

    // ---- what devices and the session use ----

    Elements<A> elements() {
        return elements;
    }

    /** The whole host image, for registration with the engine. */
    A image() {
        return image;
    }

    /** This array, or its parts if split: what carries validity. */
    private List<DeviceArray<A>> tracked() {
        return parts.isEmpty() ? List.of(this) : parts;
    }

    /**
     * The consistency protocol for this array: every part whose host copy is stale is copied home from a device
     * holding the newest copy; {@code broughtHome} hears each of them.
     *
     * @return bytes transferred
     */
    long bringHome(Consumer<DeviceArray<A>> broughtHome) {
        long bytes = 0;
        for (DeviceArray<A> a : tracked()) {
            if (!a.hostCurrent) {
                Device from = a.current.iterator().next();
                from.download(a.buffers.get(from), elements, image, a.offset, a.length);
                a.hostCurrent = true;
                bytes += a.byteSize();
                broughtHome.accept(a);
            }
        }
        return bytes;
    }

    /** After a restore filled the host image: the host is current, every device copy stale. */
    void restored() {
        hostCurrent = true;
        current.clear();
        for (DeviceArray<A> p : parts) {
            p.hostCurrent = true;
            p.current.clear();
        }
    }

    /** Makes this array usable as an argument with {@code intent} on {@code device}; returns the buffer. */
    Object prepareFor(Device device, Intent intent) {
        if (!parts.isEmpty()) {
            throw new IllegalStateException(name + " is split into " + parts.size() + " parts: launch kernels on its parts, or join() it first");
        }
        Object buffer = buffers.get(device);
        if (buffer == null) {
            buffer = device.allocate(elements, length);
            buffers.put(device, buffer);
        }
        if (intent.reads() && !current.contains(device)) {
            if (!hostCurrent) {
                bringHome(d -> { });
            }
            device.upload(buffer, elements, image, offset, length);
            current.add(device);
        }
        return buffer;
    }

    /** A kernel on {@code device} wrote this array: only that copy is current now. */
    void writtenOn(Device device) {
        current.clear();
        current.add(device);
        hostCurrent = false;
    }

    /** Checked mode: prepares the check of {@code intent} on {@code device} and returns what verifies it afterwards. */
    Runnable checkOn(Device device, Intent intent, Kernel kernel) {
        Object buffer = buffers.get(device);
        if (intent == Intent.WRITE) {
            A poison = elements.allocate(length);
            elements.poison(poison);
            device.poke(buffer, elements, poison, length);
            return () -> {
                int left = elements.firstPoisoned(device.peek(buffer, elements, length));
                if (left >= 0) {
                    throw new KernelContractException(kernel + " declares WRITE of " + name + " but left element " + left
                            + " unwritten: declare READ_WRITE if it keeps old values, or write every element");
                }
            };
        }
        A before = device.peek(buffer, elements, length);
        return () -> {
            boolean same = elements.sameContents(before, device.peek(buffer, elements, length));
            if (intent == Intent.READ && !same) {
                throw new KernelContractException(kernel + " changed " + name + ", which it declares READ: declare READ_WRITE");
            }
            if (intent == Intent.READ_WRITE && same) {
                throw new KernelContractException(kernel + " declares a write of " + name + " that it does not perform (no element"
                        + " changed): declare READ, or fix the kernel");
            }
        };
    }

    private void releaseBuffers() {
        buffers.forEach((device, buffer) -> device.release(buffer));
        buffers.clear();
        current.clear();
    }
}
