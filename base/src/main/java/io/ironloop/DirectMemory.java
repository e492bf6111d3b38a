package io.ironloop;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's direct-buffer memory: its limit and what is in use. Staging copies and in-memory snapshots live
 * there, off the heap, so a scheme that will not fit is refused when it is set up, with the figures, rather
 * than failing with an {@link OutOfMemoryError} at its first checkpoint.
 */
public final class DirectMemory {
    private DirectMemory() {
    }

    /** {@code -XX:MaxDirectMemorySize}, by default the maximum heap. */
    public static long limit() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            long set = Long.parseLong(vm.getVMOption("MaxDirectMemorySize").getValue());
            return set > 0 ? set : Runtime.getRuntime().maxMemory();
        } catch (RuntimeException e) {
            return Runtime.getRuntime().maxMemory();
        }
    }

    /** Bytes of direct buffers allocated now. */
    public static long used() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getTotalCapacity();
            }
        }
        return 0;
    }
}
