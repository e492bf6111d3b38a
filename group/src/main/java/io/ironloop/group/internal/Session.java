package io.ironloop.group.internal;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process's membership in a job: the transport, the buffered messages, which world ranks have
 * failed (for good), the leader, the agreement service, and the listener. Every {@link ProcessGroup} of
 * the process (the first and those made by shrink) shares it.
 */
public final class Session implements TransportEvents {
    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final Transport transport;
    private final GroupListener listener;
    private final Mailbox mailbox = new Mailbox();
    private final Agreement agreement;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;
    private volatile SortedSet<Integer> failed = Collections.emptySortedSet();
    private volatile Set<Integer> alive;
    private volatile int leader = -1;

    public Session(Transport transport, GroupListener listener) {
        this.transport = transport;
        this.listener = listener;
        this.agreement = new Agreement(this);
        TreeSet<Integer> all = new TreeSet<>();
        for (int r = 0; r < transport.worldSize(); r++) {
            all.add(r);
        }
        this.alive = Collections.unmodifiableSortedSet(all);
    }

    /**
     * Starts the transport (waits until every rank has joined) and returns the world group.
     *
     * @throws io.ironloop.IronloopException if the group cannot be formed
     */
    public ProcessGroup start() {
        transport.start(this);
        int[] members = new int[transport.worldSize()];
        for (int r = 0; r < members.length; r++) {
            members[r] = r;
        }
        return new CommGroup(this, 0, members, transport.worldRank());
    }

    public int worldRank() {
        return transport.worldRank();
    }

    public String jobId() {
        return transport.jobId();
    }

    /** World ranks that have failed, for good. */
    public SortedSet<Integer> failedWorldRanks() {
        return failed;
    }

    /** World ranks currently alive (including this one). */
    public Set<Integer> aliveWorldRanks() {
        return alive;
    }

    public int leaderWorldRank() {
        return leader;
    }

    Diagnostics.Counts transportCounts() {
        return transport.counts();
    }

    public boolean isClosed() {
        return closed.get();
    }

    Agreement agreement() {
        return agreement;
    }

    void send(int destWorld, Envelope e) {
        if (destWorld == transport.worldRank()) {
            mailbox.put(e);
        } else if (!failed.contains(destWorld)) {
            transport.send(destWorld, e);
        }
    }

    byte[] take(int epoch, Envelope.Kind kind, int sourceWorld, long tag, Supplier<RuntimeException> abort) {
        return mailbox.take(epoch, kind, sourceWorld, tag, abort);
    }

    void discardEpoch(int epoch) {
        mailbox.discardEpoch(epoch);
    }

    @Override
    public void onMessage(Envelope e) {
        if (e.kind() == Envelope.Kind.AGREE) {
            agreement.onMessage(e);
        } else {
            mailbox.put(e);
        }
    }

    @Override
    public void onMembership(Set<Integer> nowAlive, int newLeader) {
        SortedSet<Integer> newlyFailed = new TreeSet<>();
        synchronized (this) {
            TreeSet<Integer> f = new TreeSet<>(failed);
            for (int r = 0; r < transport.worldSize(); r++) {
                if (!nowAlive.contains(r) && f.add(r)) {
                    newlyFailed.add(r);
                }
            }
            TreeSet<Integer> a = new TreeSet<>(nowAlive);
            a.removeAll(f);
            failed = Collections.unmodifiableSortedSet(f);
            alive = Collections.unmodifiableSortedSet(a);
        }
        int oldLeader = leader;
        leader = newLeader;
        if (!newlyFailed.isEmpty() && closing) {
            LOG.debug("job {} rank {}: world ranks {} left while the job closes", jobId(), worldRank(), newlyFailed);
        } else if (!newlyFailed.isEmpty()) {
            LOG.warn("job {} rank {}: world ranks {} failed; alive {}", jobId(), worldRank(), newlyFailed, alive);
            notify(() -> listener.failed(Collections.unmodifiableSortedSet(newlyFailed)));
        }
        if (oldLeader != newLeader) {
            notify(() -> listener.leaderChanged(oldLeader, newLeader));
        }
        agreement.onMembershipChange();
        mailbox.wakeAll();
    }

    @Override
    public void onSuspect(int worldRank) {
        notify(() -> listener.suspected(worldRank));
    }

    @Override
    public void onJoined(int worldRank) {
        notify(() -> listener.joined(worldRank));
    }

    private void notify(Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            LOG.warn("group listener threw; ignoring it", e);
        }
    }

    /** Every survivor agreed to close: departures from now on are not failures. */
    void closing() {
        closing = true;
    }

    /** Closes the transport at once (no collective close) and wakes every waiter. */
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                transport.close();
            } finally {
                mailbox.wakeAll();
                agreement.wakeAll();
            }
        }
    }
}
