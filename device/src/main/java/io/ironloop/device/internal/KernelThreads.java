package io.ironloop.device.internal;

/**
 * Marks the threads that are running a Java kernel's body, so that host access from inside a kernel (an array
 * the kernel did not declare) is caught.
 */
public final class KernelThreads {
    private static final ThreadLocal<String> RUNNING = new ThreadLocal<>();

    private KernelThreads() {
    }

    /** The name of the kernel this thread is running, or null outside kernels. */
    public static String current() {
        return RUNNING.get();
    }

    static void enter(String kernel) {
        RUNNING.set(kernel);
    }

    static void exit() {
        RUNNING.remove();
    }
}
