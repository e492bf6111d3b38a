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
    private volatile java.util.function.BiPredicate<Integer, Envelope> filter = (to, e) -> true;

    public InJvmHub(String jobId, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("an in-JVM job needs at least 1 rank, not " + size);
        }
        this.jobId = jobId;
        this.endpoints = new InJvmTransport[size];
        this.gone = new boolean[size];
        for (int r = 0; r < size; r++) {
            endpoints[r] = new InJvmTransport(this, r);
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
        byte[] copy = e.payload().clone();
        target.enqueue(() -> target.events().onMessage(new Envelope(e.epoch(), e.kind(), e.tag(), e.source(), copy)));
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
            t.enqueue(() -> t.events().onSuspect(rank));
            t.enqueue(() -> t.events().onMembership(others, leader));
        }
        InJvmTransport victim = endpoints[rank];
        victim.enqueue(() -> victim.events().onMembership(Set.of(rank), rank));
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
