package io.ironloop;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's direct-buffer memory: its limit, what is in use, and what is reserved. Staging copies and in-memory
 * snapshots live there, off the heap, so a scheme that will not fit is refused when it is set up, with the
 * figures, rather than failing with an {@link OutOfMemoryError} at its first checkpoint. Whoever sets up such
 * copies {@linkplain #reserve reserves} them here, the one account of the JVM, so that every engine and every
 * in-memory scheme of the process is checked against what the others hold. Thread-safe.
 */
public final class DirectMemory {
    /** Bytes reserved by the reservations not released yet; guarded by the class. */
    private static long reserved;

    private DirectMemory() {
    }

    /**
     * Reserves {@code bytes} of direct memory for {@code what} until the reservation is released, if they fit the
     * limit with everything reserved before.
     *
     * @param what what the bytes are for, as a message's subject (e.g. "protecting 'grid' (… × MAX_IN_FLIGHT 2)")
     * @param bytes how many, not negative
     * @param remedy what to do when they do not fit, as the message's end
     * @return the reservation: closing it (once or more) gives the bytes back
     * @throws ConfigurationException if the bytes and those reserved already pass {@link #limit()}, naming both
     */
    public static Reservation reserve(String what, long bytes, String remedy) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve a negative number of bytes: " + bytes);
        }
        long limit = limit();
        synchronized (DirectMemory.class) {
            if (bytes > limit - reserved) {
                throw new ConfigurationException(String.format("%s needs %d bytes of direct memory, but %d bytes are reserved already in "
                        + "this JVM (every checkpoint engine's staging copies and in-memory copies) and the JVM's direct-memory limit is %d "
                        + "bytes: %s", what, bytes, reserved, limit, remedy));
            }
            reserved += bytes;
        }
        return new Reservation(bytes);
    }

    /** Bytes reserved now ({@link #reserve}), in this JVM. */
    public static synchronized long reserved() {
        return reserved;
    }

    /** Bytes of direct memory held for someone until {@link #close}. */
    public static final class Reservation implements AutoCloseable {
        private final long bytes;
        private boolean released;

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        /** The bytes reserved. */
        public long bytes() {
            return bytes;
        }

        /** Gives the bytes back; later calls do nothing. */
        @Override
        public void close() {
            synchronized (DirectMemory.class) {
                if (!released) {
                    released = true;
                    reserved -= bytes;
                }
            }
        }
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
