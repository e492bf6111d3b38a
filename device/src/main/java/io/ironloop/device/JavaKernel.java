package io.ironloop.device;

/**
 * The body of a kernel on the pure-Java device: it processes the work items {@code [from, to)} of a launch.
 * The device splits a launch's range into contiguous pieces and runs them in parallel on its thread pool, so
 * work items must be independent (as in OpenCL) for the result not to depend on the split.
 */
@FunctionalInterface
public interface JavaKernel {
    /**
     * Runs work items {@code from} (inclusive) to {@code to} (exclusive).
     *
     * @param args the launch's arguments, arrays as this device's buffers (index 0 is the buffer's first element)
     */
    void run(KernelArgs args, int from, int to);
}
