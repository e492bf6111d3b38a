package io.ironloop.group.internal;

/**
 * Moves {@link Envelope}s between the members of one job and reports membership. Messages from one sender
 * are delivered in the order sent. Implementations: JGroups (processes) and in-JVM (threads).
 *
 * <p>Membership is reported only once every world rank has joined; from then on, a rank missing from
 * the reported set is failed for good.
 */
public interface Transport extends AutoCloseable {
    /** This member's world rank. */
    int worldRank();

    /** Number of world ranks. */
    int worldSize();

    /** The job id. */
    String jobId();

    /**
     * Starts delivering events to {@code events}; returns once every world rank has joined.
     *
     * @throws io.ironloop.IronloopException if the group cannot be formed in time
     */
    void start(TransportEvents events);

    /**
     * Sends {@code envelope} to {@code destWorldRank}; silently dropped if that rank is gone. The caller may
     * reuse the payload once this returns: a transport that keeps it longer copies it.
     */
    void send(int destWorldRank, Envelope envelope);

    /**
     * Where bulk payloads are received into and given back to ({@code ProcessGroup.recycle}). By default a
     * pool that keeps nothing.
     */
    default io.ironloop.BufferPool buffers() {
        return NO_BUFFERS;
    }

    /** The pool of transports that receive no bulk payloads into buffers of their own. */
    io.ironloop.BufferPool NO_BUFFERS = new io.ironloop.BufferPool(0);

    /**
     * The directory of the memory-mapped files through which large allreduces between members of one host go
     * ({@code SharedMemoryAllreduce}), or null to always use messages. By default null.
     */
    default java.nio.file.Path sharedMemoryDirectory() {
        return null;
    }

    /** The port of this member's direct data connections, or -1 if it has none. */
    default int dataPort() {
        return -1;
    }

    /** Network counters of this process; {@link Diagnostics.Counts#NONE} without a network. */
    default Diagnostics.Counts counts() {
        return Diagnostics.Counts.NONE;
    }

    /** Leaves the group and releases resources; idempotent. */
    @Override
    void close();

    /**
     * The collective close begins: every member is about to agree to close and then leave at about the same
     * time with {@link #closeTogether()}. Called before the agreement, so that whatever the transport changes
     * for leaving together is in place before any member leaves. By default nothing.
     */
    default void prepareToCloseTogether() {
    }

    /**
     * Like {@link #close()}, when every member has agreed to close and all of them leave now (the collective
     * close): a transport whose leaving involves the others can order the departures so that nobody waits for
     * a member that is leaving too. By default the same as {@link #close()}.
     */
    default void closeTogether() {
        close();
    }
}
