package io.ironloop.device.internal;

import io.ironloop.device.DeviceKind;
import io.ironloop.device.Kernel;

/**
 * One device's operations, in the order of an in-order queue: kernels run asynchronously after everything
 * enqueued before them; uploads and downloads block until done (a download waits for the kernels before it).
 * Buffers are opaque objects that only this back end understands. Used by one host thread.
 */
public interface Backend extends AutoCloseable {
    String name();

    DeviceKind kind();

    Object allocate(Elements<?> elements, int length);

    /** Copies host elements {@code [offset, offset + length)} into {@code buffer}; blocks until done. */
    <A> void upload(Object buffer, Elements<A> elements, A host, int offset, int length);

    /** Copies {@code buffer} into host elements {@code [offset, offset + length)}; blocks until done. */
    <A> void download(Object buffer, Elements<A> elements, A host, int offset, int length);

    /**
     * Enqueues {@code kernel} over {@code globalSize} work items; {@code args} holds buffers for array
     * arguments and boxed {@code Integer}, {@code Long}, {@code Float}, {@code Double} for scalars.
     */
    void run(Kernel kernel, int globalSize, Object[] args);

    /** Waits until everything enqueued is done; rethrows a kernel's failure. */
    void finish();

    void release(Object buffer);

    @Override
    void close();
}
