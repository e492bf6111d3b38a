package io.ironloop.group.internal;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
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
 *
 * <p><b>Fencing.</b> Failure is for good and must hold on both sides: when this member learns that ranks
 * failed, it first sends each of them a FENCE message ("you were declared failed"), then acts on the new
 * membership. A member declared failed while it is in fact alive (hung past the timeout, or stalled on a
 * loaded machine, then resumed) receives the FENCE before anything the excluding members do afterwards
 * (messages from one sender arrive in order), and from then on every operation of its groups throws a
 * {@link ProcessFailedException} naming itself: it never decides an agreement or finishes a collective on
 * its own while the others continue without it.
 */
public final class Session implements TransportEvents {
    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final Transport transport;
    private final GroupListener listener;
    private final Mailbox mailbox = new Mailbox();
    private final Agreement agreement;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;
    private volatile boolean closingTogether;
    private volatile SortedSet<Integer> failed = Collections.emptySortedSet();
    private volatile Set<Integer> alive;
    private volatile int leader = -1;
    private volatile int excludedBy = -1;

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

    int dataPort() {
        return transport.dataPort();
    }

    Diagnostics.Counts transportCounts() {
        return transport.counts();
    }

    public boolean isClosed() {
        return closed.get();
    }

    /** Whether the other members declared this one failed (it received a FENCE). */
    public boolean isExcluded() {
        return excludedBy >= 0;
    }

    /**
     * The exception every operation of this process throws once it was excluded, or null.
     *
     * @param operation what was going on, for the message
     * @param groupRank this process's rank in the group whose operation throws
     */
    ProcessFailedException exclusion(String operation, int groupRank) {
        int by = excludedBy;
        if (by < 0) {
            return null;
        }
        return new io.ironloop.group.ProcessExcludedException(jobId(), groupRank, operation + ": this process (world rank " + worldRank()
                + ") was declared failed by world rank " + by + " and must not continue; it leaves the job");
    }

    /** The transport's pool of bulk receive buffers. */
    io.ironloop.BufferPool buffers() {
        return transport.buffers();
    }

    /** Where large allreduces between members of one host may map their shared files, or null (messages only). */
    java.nio.file.Path sharedMemoryDirectory() {
        return transport.sharedMemoryDirectory();
    }

    Agreement agreement() {
        return agreement;
    }

    void send(int destWorld, Envelope e) {
        if (destWorld == transport.worldRank()) {
            mailbox.put(e.copy());
        } else if (!failed.contains(destWorld)) {
            transport.send(destWorld, e);
        }
    }

    /**
     * The collective tag of a member's departure notice (collective sequence numbers start at 1): sent on
     * the collective channel, so it arrives after every collective and point-to-point message the member
     * sent before closing.
     */
    static final long DEPARTURE_TAG = -1;

    /**
     * The departure notice world rank {@code sourceWorld} sent for {@code epoch}, or null: the world ranks it
     * had seen fail before it left ({@link #departureNotice}), empty when it left on its own account.
     */
    SortedSet<Integer> departed(int epoch, int sourceWorld) {
        java.nio.ByteBuffer notice = mailbox.peek(epoch, Envelope.Kind.COLLECTIVE, sourceWorld, DEPARTURE_TAG);
        if (notice == null) {
            return null;
        }
        SortedSet<Integer> seen = new TreeSet<>();
        java.nio.ByteBuffer b = notice.duplicate();
        while (b.remaining() >= Integer.BYTES) {
            seen.add(b.getInt());
        }
        return seen;
    }

    /** A departure notice's payload: the world ranks {@code seenFailed} its sender has seen fail (big-endian ints). */
    static byte[] departureNotice(Set<Integer> seenFailed) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(seenFailed.size() * Integer.BYTES);
        seenFailed.forEach(b::putInt);
        return b.array();
    }

    java.nio.ByteBuffer take(int epoch, Envelope.Kind kind, int sourceWorld, long tag, Supplier<RuntimeException> abort) {
        return mailbox.take(epoch, kind, sourceWorld, tag, abort);
    }

    void discardEpoch(int epoch) {
        mailbox.discardEpoch(epoch);
    }

    @Override
    public void onMessage(Envelope e) {
        if (e.kind() == Envelope.Kind.AGREE) {
            agreement.onMessage(e);
        } else if (e.kind() == Envelope.Kind.FENCE) {
            fenced(e.source());
        } else {
            mailbox.put(e);
        }
    }

    private void fenced(int by) {
        if (closing || closed.get() || excludedBy >= 0) {
            return;
        }
        excludedBy = by;
        LOG.error("job {} rank {}: world rank {} declared this process failed (it was silent for longer than the failure "
                + "detection allows, e.g. stopped or starved of CPU); every group operation now throws", jobId(), worldRank(), by);
        notify(() -> listener.failed(Collections.unmodifiableSortedSet(new TreeSet<>(Set.of(worldRank())))));
        agreement.wakeAll();
        mailbox.wakeAll();
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
            if (!closing) {
                // before anything here acts on the new membership: a rank declared failed that is still
                // running learns it before it can see this member leave and act alone
                for (int r : newlyFailed) {
                    if (r != worldRank()) {
                        transport.send(r, new Envelope(0, Envelope.Kind.FENCE, 0, worldRank(), new byte[0]));
                    }
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

    /** The collective close begins (before its agreement); see {@link Transport#prepareToCloseTogether()}. */
    void prepareToCloseTogether() {
        transport.prepareToCloseTogether();
    }

    /**
     * This member closes: departures from now on are not failures.
     *
     * @param together whether every survivor agreed to close, so that all of them leave now
     */
    void closing(boolean together) {
        closingTogether = together;
        closing = true;
    }

    /**
     * Closes the transport and wakes every waiter: after a collective close that every survivor agreed to,
     * with {@link Transport#closeTogether()}, otherwise at once.
     */
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                if (closingTogether) {
                    transport.closeTogether();
                } else {
                    transport.close();
                }
            } finally {
                mailbox.wakeAll();
                agreement.wakeAll();
            }
        }
    }
}
