package io.ironloop.group;

import io.ironloop.group.internal.Session;
import io.ironloop.group.internal.local.InJvmHub;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A job whose ranks are threads of this JVM: the same {@link ProcessGroup} API and failure semantics
 * without processes or sockets, for fast tests. {@link #crash(int)} simulates the failure of a rank.
 *
 * <p>Threading: each {@link #group(int) group} is used by its own thread, as in a real job.
 */
public final class InJvmCluster implements AutoCloseable {
    private final InJvmHub hub;
    private final List<ProcessGroup> groups = new ArrayList<>();
    private final List<Session> sessions = new ArrayList<>();

    private InJvmCluster(String jobId, int size, IntFunction<GroupListener> listeners) {
        this.hub = new InJvmHub(jobId, size);
        for (int r = 0; r < size; r++) {
            GroupListener l = Objects.requireNonNull(listeners.apply(r), "listener of rank " + r);
            Session s = new Session(hub.endpoint(r), l);
            sessions.add(s);
            groups.add(s.start());
        }
    }

    /**
     * Creates a job of {@code size} in-JVM ranks.
     *
     * @throws IllegalArgumentException if size &lt; 1
     */
    public static InJvmCluster open(String jobId, int size) {
        return open(jobId, size, r -> GroupListener.NONE);
    }

    /** Creates a job of {@code size} in-JVM ranks, with a listener per rank. */
    public static InJvmCluster open(String jobId, int size, IntFunction<GroupListener> listeners) {
        Objects.requireNonNull(jobId, "jobId");
        return new InJvmCluster(jobId, size, listeners);
    }

    /** The number of ranks. */
    public int size() {
        return groups.size();
    }

    /** The world group of {@code rank}. */
    public ProcessGroup group(int rank) {
        return groups.get(rank);
    }

    /**
     * Simulates a crash of {@code rank}: every other rank sees it fail (its group is revoked), and the
     * crashed rank sees every other rank fail, so its own pending operations end too.
     */
    public void crash(int rank) {
        Objects.checkIndex(rank, groups.size());
        hub.isolate(rank);
    }

    /** Ends the job at once, without the collective close of each group (ranks may still be running). */
    @Override
    public void close() {
        for (Session s : sessions) {
            s.close();
        }
    }
}
