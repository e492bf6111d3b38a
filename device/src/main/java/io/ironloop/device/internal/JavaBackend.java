package io.ironloop.device.internal;

import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceLostException;
import io.ironloop.device.JavaKernel;
import io.ironloop.device.Kernel;
import io.ironloop.device.KernelArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pure-Java CPU device: its buffers are Java arrays of its own (separate from the host images, as a
 * device's memory is), its queue is one thread, and a kernel's work items are split into contiguous pieces run
 * by a pool of {@code threads} threads. In order: a transfer waits for the kernels enqueued before it.
 */
public final class JavaBackend implements Backend {
    private final String name;
    private final int threads;
    private final ExecutorService queue;
    private final ExecutorService workers;
    private Future<?> last;

    public JavaBackend(String name, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a Java device needs at least one thread, got " + threads);
        }
        this.name = name;
        this.threads = threads;
        this.queue = Executors.newSingleThreadExecutor(daemons(name + "-queue"));
        this.workers = threads > 1 ? Executors.newFixedThreadPool(threads - 1, daemons(name + "-worker")) : null;
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.JAVA;
    }

    @Override
    public Object allocate(Elements<?> elements, int length) {
        return elements.allocate(length);
    }

    @Override
    public <A> void upload(Object buffer, Elements<A> elements, A host, int offset, int length) {
        finish();
        @SuppressWarnings("unchecked")
        A device = (A) buffer;
        elements.copy(host, offset, device, 0, length);
    }

    @Override
    public <A> void download(Object buffer, Elements<A> elements, A host, int offset, int length) {
        finish();
        @SuppressWarnings("unchecked")
        A device = (A) buffer;
        elements.copy(device, 0, host, offset, length);
    }

    @Override
    public void run(Kernel kernel, int globalSize, Object[] args) {
        JavaKernel body = kernel.javaBody().orElseThrow(() -> new IllegalArgumentException(
                kernel + " has no Java body: it cannot run on the Java device " + name + "; give Kernel.of a Java body or use OpenCL"));
        Args view = new Args(args.clone(), globalSize);
        last = queue.submit(() -> {
            execute(kernel.name(), body, view, globalSize);
            return null;
        });
    }

    private void execute(String kernel, JavaKernel body, Args args, int globalSize) throws Exception {
        int pieces = Math.max(1, Math.min(threads, globalSize));
        List<Future<?>> others = new ArrayList<>(pieces - 1);
        for (int p = 1; p < pieces; p++) {
            int from = (int) ((long) globalSize * p / pieces);
            int to = (int) ((long) globalSize * (p + 1) / pieces);
            others.add(workers.submit(() -> piece(kernel, body, args, from, to)));
        }
        piece(kernel, body, args, 0, (int) ((long) globalSize / pieces));
        for (Future<?> f : others) {
            f.get();
        }
    }

    private static void piece(String kernel, JavaKernel body, Args args, int from, int to) {
        KernelThreads.enter(kernel);
        try {
            body.run(args, from, to);
        } finally {
            KernelThreads.exit();
        }
    }

    @Override
    public void finish() {
        Future<?> f = last;
        if (f == null) {
            return;
        }
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeviceLostException("interrupted while waiting for device " + name, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof ExecutionException inner ? inner.getCause() : e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new DeviceLostException("a kernel failed on device " + name + ": " + cause, cause);
        } finally {
            if (f.isDone()) {
                last = null;
            }
        }
    }

    @Override
    public void release(Object buffer) {
        // garbage collected
    }

    @Override
    public void close() {
        queue.shutdownNow();
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    /** The arguments as the Java body sees them. */
    private record Args(Object[] values, int globalSize) implements KernelArgs {
        @Override
        public double[] doubles(int index) {
            return (double[]) values[index];
        }

        @Override
        public float[] floats(int index) {
            return (float[]) values[index];
        }

        @Override
        public int[] ints(int index) {
            return (int[]) values[index];
        }

        @Override
        public long[] longs(int index) {
            return (long[]) values[index];
        }

        @Override
        public int intValue(int index) {
            return (Integer) values[index];
        }

        @Override
        public long longValue(int index) {
            return (Long) values[index];
        }

        @Override
        public float floatValue(int index) {
            return (Float) values[index];
        }

        @Override
        public double doubleValue(int index) {
            return (Double) values[index];
        }
    }
}
