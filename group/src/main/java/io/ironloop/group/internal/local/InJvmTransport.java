package io.ironloop.group.internal.local;

import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Transport;
import io.ironloop.group.internal.TransportEvents;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/** One rank's endpoint of an {@link InJvmHub}. */
public final class InJvmTransport implements Transport {
    private final InJvmHub hub;
    private final int rank;
    private final ExecutorService delivery;
    private volatile TransportEvents events;

    InJvmTransport(InJvmHub hub, int rank) {
        this.hub = hub;
        this.rank = rank;
        this.delivery = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-injvm-" + hub.jobId() + "-r" + rank);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public int worldRank() {
        return rank;
    }

    @Override
    public java.nio.file.Path sharedMemoryDirectory() {
        return hub.sharedMemoryDirectory(rank);
    }

    @Override
    public int worldSize() {
        return hub.size();
    }

    @Override
    public String jobId() {
        return hub.jobId();
    }

    TransportEvents events() {
        return events;
    }

    @Override
    public void start(TransportEvents e) {
        this.events = e;
        for (int r = 0; r < hub.size(); r++) {
            int joined = r;
            enqueue(() -> e.onJoined(joined));
        }
        Set<Integer> alive = hub.alive();
        int leader = alive.isEmpty() ? -1 : alive.iterator().next();
        enqueue(() -> e.onMembership(alive, leader));
    }

    void enqueue(Runnable r) {
        try {
            delivery.execute(r);
        } catch (RejectedExecutionException closed) {
            // this endpoint is closed: nothing more is delivered to it
        }
    }

    @Override
    public void send(int destWorldRank, Envelope envelope) {
        hub.deliver(rank, destWorldRank, envelope);
    }

    @Override
    public void close() {
        hub.isolate(rank);
        delivery.shutdown();
    }
}
