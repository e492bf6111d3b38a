package io.ironloop.device;

import io.ironloop.device.internal.Backend;
import io.ironloop.device.internal.Elements;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One device (a pure-Java CPU device or an OpenCL device) with an in-order queue. {@link #launch} makes every
 * array argument that the kernel reads current on this device (transferring it only when this device's copy is
 * stale), enqueues the kernel and returns; the arrays it writes are then current here only. Reading an array on
 * the host ({@link DeviceArray#host}) waits for the kernels that produce it.
 *
 * <p>Threading: one host thread launches and accesses arrays; each device runs its queue on its own. Failure: a
 * device whose queue fails (or that {@link #loseAfter} makes fail) throws {@link DeviceLostException} from that
 * and every later operation; what was current only on it is lost until a restart from a checkpoint.
 */
public final class Device {
    private final Backend backend;
    private final int index;
    private final boolean checked;
    private long bytesToDevice;
    private long bytesToHost;
    private long transfersToDevice;
    private long transfersToHost;
    private long launches;
    private long loseAfter = Long.MAX_VALUE;
    private String lostBecause;

    Device(Backend backend, int index, boolean checked) {
        this.backend = backend;
        this.index = index;
        this.checked = checked;
    }

    /** A readable name, e.g. {@code java:0 (1 thread)} or {@code opencl:1 (cpu, sub-device 1 of 2, 1 compute units)}. */
    public String name() {
        return backend.name();
    }

    public DeviceKind kind() {
        return backend.kind();
    }

    /** This device's index in its {@link DeviceSet}. */
    public int index() {
        return index;
    }

    /**
     * Launches {@code kernel} over {@code globalSize} work items (ids 0 to globalSize − 1). Array arguments the
     * kernel reads are made current on this device first (from the host, or through the host from the device
     * holding the newest copy); arrays it writes become current only here.
     *
     * @throws DeviceLostException if the device failed
     * @throws KernelContractException in checked mode, if the kernel broke its intents
     * @throws IllegalArgumentException if the kernel has no implementation for this device's kind
     * @throws IllegalStateException if an argument is an array split into parts (launch on the parts)
     */
    public void launch(Kernel kernel, int globalSize, Arg... args) {
        Objects.requireNonNull(kernel, "kernel");
        if (globalSize < 0) {
            throw new IllegalArgumentException("globalSize must not be negative: " + globalSize);
        }
        ensureUsable();
        if (launches >= loseAfter) {
            lostBecause = "its queue failed at launch " + launches + " (injected by loseAfter)";
            ensureUsable();
        }
        Object[] resolved = new Object[args.length];
        List<Runnable> checks = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            Arg a = Objects.requireNonNull(args[i], "argument " + i);
            if (a instanceof Arg.ArrayArg array) {
                resolved[i] = array.array().prepareFor(this, array.intent());
            } else if (a instanceof Arg.IntArg v) {
                resolved[i] = v.value();
            } else if (a instanceof Arg.LongArg v) {
                resolved[i] = v.value();
            } else if (a instanceof Arg.FloatArg v) {
                resolved[i] = v.value();
            } else {
                resolved[i] = ((Arg.DoubleArg) a).value();
            }
            if (checked && a instanceof Arg.ArrayArg array) {
                checks.add(array.array().checkOn(this, array.intent(), kernel));
            }
        }
        backend.run(kernel, globalSize, resolved);
        launches++;
        for (Arg a : args) {
            if (a instanceof Arg.ArrayArg array && array.intent().writes()) {
                array.array().writtenOn(this);
            }
        }
        if (checked) {
            finish();
            checks.forEach(Runnable::run);
        }
    }

    /** Waits until every kernel launched on this device has finished. */
    public void finish() {
        ensureUsable();
        backend.finish();
    }

    /** What this device has transferred and launched so far. */
    public TransferStats stats() {
        return new TransferStats(bytesToDevice, bytesToHost, transfersToDevice, transfersToHost, launches);
    }

    /**
     * Fault injection for tests and demos: the device's queue fails at the launch after {@code launches} more
     * launches, as a lost device's would.
     */
    public void loseAfter(long moreLaunches) {
        if (moreLaunches < 0) {
            throw new IllegalArgumentException("moreLaunches must not be negative: " + moreLaunches);
        }
        loseAfter = launches + moreLaunches;
    }

    /** Whether the device has failed. */
    public boolean isLost() {
        return lostBecause != null;
    }

    <A> Object allocate(Elements<A> elements, int length) {
        ensureUsable();
        return backend.allocate(elements, length);
    }

    <A> void upload(Object buffer, Elements<A> elements, A host, int offset, int length) {
        ensureUsable();
        backend.upload(buffer, elements, host, offset, length);
        bytesToDevice += (long) length * elements.bytes();
        transfersToDevice++;
    }

    <A> void download(Object buffer, Elements<A> elements, A host, int offset, int length) {
        ensureUsable();
        backend.download(buffer, elements, host, offset, length);
        bytesToHost += (long) length * elements.bytes();
        transfersToHost++;
    }

    /** A copy of a buffer, for checked mode (not counted as a transfer). */
    <A> A peek(Object buffer, Elements<A> elements, int length) {
        A copy = elements.allocate(length);
        backend.download(buffer, elements, copy, 0, length);
        return copy;
    }

    /** Writes {@code values} into a buffer, for checked mode (not counted as a transfer). */
    <A> void poke(Object buffer, Elements<A> elements, A values, int length) {
        backend.upload(buffer, elements, values, 0, length);
    }

    void release(Object buffer) {
        if (lostBecause == null) {
            backend.release(buffer);
        }
    }

    void close() {
        backend.close();
    }

    private void ensureUsable() {
        if (lostBecause != null) {
            throw new DeviceLostException("device " + name() + " is lost: " + lostBecause
                    + "; restart from the last checkpoint on the remaining devices");
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
