package io.ironloop.group.internal;

import io.ironloop.group.ProcessGroup;

/**
 * Internal measurements for benchmarks and tests (not part of the API): heartbeat messages counted on
 * the wire and connections refused for lack of the job secret.
 */
public final class Diagnostics {
    private Diagnostics() {
    }

    /**
     * Counters of one process, as an immutable snapshot.
     *
     * @param heartbeatsSent heartbeat messages this process handed to the network
     * @param heartbeatsReceived heartbeat messages this process received from the network
     * @param refusedConnections incoming connections refused because the peer lacked the job secret
     */
    public record Counts(long heartbeatsSent, long heartbeatsReceived, long refusedConnections) {
        /** For transports without a network. */
        public static final Counts NONE = new Counts(0, 0, 0);
    }

    /** The port on which the process that owns {@code group} accepts direct data connections, or -1. */
    public static int dataPort(ProcessGroup group) {
        if (group instanceof CommGroup c) {
            return c.session().dataPort();
        }
        throw new IllegalArgumentException("not an Ironloop process group: " + group.getClass().getName());
    }

    /** The counters of the process that owns {@code group}. */
    public static Counts counts(ProcessGroup group) {
        if (group instanceof CommGroup c) {
            return c.session().transportCounts();
        }
        throw new IllegalArgumentException("not an Ironloop process group: " + group.getClass().getName());
    }
}
