package io.ironloop.group.internal.local;

import io.ironloop.group.internal.Envelope;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The "network" of an in-JVM job: N {@link InJvmTransport} endpoints in one JVM, ranks as threads.
 * Delivery copies payloads (as a wire would) and keeps per-sender order through one delivery thread per
 * endpoint. {@link #isolate(int)} simulates a crash: the others see the rank fail, and the rank sees
 * everyone else fail.
 */
public final class InJvmHub {
    private final String jobId;
    private final InJvmTransport[] endpoints;
    private final boolean[] gone;
    private final java.util.List<java.util.List<Runnable>> held = new java.util.ArrayList<>();
    private volatile java.util.function.BiPredicate<Integer, Envelope> filter = (to, e) -> true;
    private final java.nio.file.Path[] sharedMemoryDirectories;

    public InJvmHub(String jobId, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("an in-JVM job needs at least 1 rank, not " + size);
        }
        this.jobId = jobId;
        this.endpoints = new InJvmTransport[size];
        this.gone = new boolean[size];
        this.sharedMemoryDirectories = new java.nio.file.Path[size];
        for (int r = 0; r < size; r++) {
            endpoints[r] = new InJvmTransport(this, r);
            held.add(null);
        }
    }

    public String jobId() {
        return jobId;
    }

    public int size() {
        return endpoints.length;
    }

    public InJvmTransport endpoint(int rank) {
        return endpoints[rank];
    }

    /**
     * Lets large allreduces between this hub's ranks go through memory-mapped files in {@code directory}, as ranks of
     * one host do ({@code SharedMemoryAllreduce}); by default they use messages only.
     */
    public void sharedMemory(java.nio.file.Path directory) {
        java.util.Objects.requireNonNull(directory, "directory");
        java.util.Arrays.fill(sharedMemoryDirectories, directory);
    }

    /** Like {@link #sharedMemory(java.nio.file.Path)} for one rank only; null switches it off there. */
    public void sharedMemory(int rank, java.nio.file.Path directory) {
        sharedMemoryDirectories[rank] = directory;
    }

    java.nio.file.Path sharedMemoryDirectory(int rank) {
        return sharedMemoryDirectories[rank];
    }

    /** Fault injection for tests: only messages for which {@code filter(destination, envelope)} holds are delivered. */
    public void filter(java.util.function.BiPredicate<Integer, Envelope> filter) {
        this.filter = java.util.Objects.requireNonNull(filter, "filter");
    }

    void deliver(int from, int to, Envelope e) {
        if (!filter.test(to, e)) {
            return;
        }
        InJvmTransport target;
        synchronized (this) {
            if (gone[from] || gone[to]) {
                return;
            }
            target = endpoints[to];
        }
        Envelope copy = e.copy();
        post(to, () -> target.events().onMessage(copy));
    }

    /** Queues an event for {@code rank}'s delivery thread, or keeps it while the rank is held. */
    private void post(int rank, Runnable event) {
        synchronized (this) {
            java.util.List<Runnable> h = held.get(rank);
            if (h != null) {
                h.add(event);
                return;
            }
        }
        endpoints[rank].enqueue(event);
    }

    /**
     * Fault injection for tests: {@code rank} stops processing (as a stopped or starved process does):
     * messages and membership events for it are kept, in order, until {@link #release(int)}.
     */
    public synchronized void hold(int rank) {
        if (held.get(rank) == null) {
            held.set(rank, new java.util.ArrayList<>());
        }
    }

    /** Delivers, in order, everything kept for {@code rank} since {@link #hold(int)} and resumes normal delivery. */
    public synchronized void release(int rank) {
        java.util.List<Runnable> h = held.set(rank, null);
        if (h != null) {
            h.forEach(endpoints[rank]::enqueue);
        }
    }

    /**
     * Fault injection for tests: only {@code observer} sees a membership change to {@code alive} (e.g. its
     * failure detector falsely declared a live rank failed); the hub itself still delivers between all
     * ranks not {@link #isolate(int) isolated}.
     */
    public void showMembership(int observer, Set<Integer> alive) {
        Set<Integer> view = Collections.unmodifiableSet(new TreeSet<>(alive));
        int leader = view.isEmpty() ? -1 : view.iterator().next();
        InJvmTransport t = endpoints[observer];
        post(observer, () -> t.events().onMembership(view, leader));
    }

    /** Makes {@code rank} fail as seen by every other rank, and every other rank fail as seen by it. */
    public void isolate(int rank) {
        Set<Integer> others;
        synchronized (this) {
            if (gone[rank]) {
                return;
            }
            gone[rank] = true;
            others = alive();
        }
        int leader = others.isEmpty() ? -1 : others.iterator().next();
        for (int r : others) {
            InJvmTransport t = endpoints[r];
            post(r, () -> t.events().onSuspect(rank));
            post(r, () -> t.events().onMembership(others, leader));
        }
        InJvmTransport victim = endpoints[rank];
        post(rank, () -> victim.events().onMembership(Set.of(rank), rank));
    }

    /** Closes every endpoint. */
    public void shutdown() {
        for (InJvmTransport t : endpoints) {
            t.close();
        }
    }

    synchronized Set<Integer> alive() {
        TreeSet<Integer> a = new TreeSet<>();
        for (int r = 0; r < endpoints.length; r++) {
            if (!gone[r]) {
                a.add(r);
            }
        }
        return Collections.unmodifiableSet(a);
    }
}
