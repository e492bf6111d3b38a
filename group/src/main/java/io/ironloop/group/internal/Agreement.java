package io.ironloop.group.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault-tolerant agreement among the surviving members of a group, coordinated by the lowest surviving
 * rank and safe against the death of any member, the coordinator included.
 *
 * <p>Protocol, per agreement (epoch, id), with messages PROPOSE, DECIDED (a report of a decision already
 * held), DECIDE, ACK and COMMIT:
 * <ol>
 *   <li>Every member sends its proposal to the member it believes is the coordinator (the lowest member
 *       it believes alive). When that changes, it sends to the new one again: its proposal, or the
 *       decision it holds as DECIDED.
 *   <li>The coordinator waits until it has heard from <em>every</em> member it believes alive, whatever
 *       it already knows. Then it decides: the decision it holds, else any reported decision (all are
 *       equal), else the combination of the proposals (minimum or bitwise AND, order-independent). It
 *       sends DECIDE to every member it believes alive.
 *   <li>A member holds a DECIDE only from the coordinator it last sent to (once it has handed its state to
 *       a newer coordinator, a late decision from an older one cannot split the survivors), and answers
 *       ACK.
 *   <li>When every member it believes alive has acknowledged, the coordinator sends COMMIT and returns;
 *       a member returns on COMMIT (from whichever coordinator: a committed value is final).
 * </ol>
 * A value is returned only once every member the deciding coordinator believed alive holds it, so any
 * later coordinator (always one of them) hears of it and adopts it: every member that returns, survivor or
 * not, returns the same value. Views that disagree (a member falsely believed failed) are resolved by
 * {@link Session}'s fencing: a member excluded by the others is told so and this service then throws on it
 * instead of deciding alone.
 *
 * <p>Threading: {@link #agree} blocks the calling thread; messages and membership changes arrive on
 * transport threads. One lock guards all state.
 */
final class Agreement {
    /** How proposals combine. */
    enum Op {
        MIN, AND
    }

    private static final Logger LOG = LoggerFactory.getLogger(Agreement.class);
    private static final byte PROPOSE = 0;
    private static final byte DECIDED = 1;
    private static final byte DECIDE = 2;
    private static final byte ACK = 3;
    private static final byte COMMIT = 4;
    private static final String[] NAMES = {"PROPOSE", "DECIDED", "DECIDE", "ACK", "COMMIT"};
    private static final int KEEP = 64;

    private record Id(int epoch, long id) {
    }

    private static final class State {
        int[] members;
        long[] proposal;
        Op op;
        final Map<Integer, long[]> proposals = new HashMap<>();
        final Map<Integer, long[]> reports = new HashMap<>();
        final Set<Integer> acks = new HashSet<>();
        /** The decision this member holds (not necessarily committed). */
        long[] decision;
        /** Whether this member, as coordinator, sent DECIDE for {@link #decision}. */
        boolean leading;
        boolean committed;
        int sentTo = -1;
    }

    private final Session session;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<Id, State> states = new LinkedHashMap<>();

    Agreement(Session session) {
        this.session = session;
    }

    /**
     * Runs agreement {@code id} of group {@code epoch} and waits for the committed decision.
     *
     * @param members world ranks of the group, in rank order
     * @throws io.ironloop.group.ProcessFailedException if the other members declared this one failed
     * @throws IllegalStateException if the session is closed while waiting
     */
    long[] agree(int epoch, long id, int[] members, long[] proposal, Op op) {
        return agree(epoch, id, members, proposal, op, Long.MAX_VALUE);
    }

    /**
     * Like {@link #agree(int, long, int[], long[], Op)} but gives up at {@code deadlineNanos}
     * ({@link System#nanoTime()} scale), returning null.
     */
    long[] agree(int epoch, long id, int[] members, long[] proposal, Op op, long deadlineNanos) {
        lock.lock();
        try {
            State s = state(new Id(epoch, id));
            s.members = members.clone();
            s.proposal = proposal.clone();
            s.op = op;
            step(epoch, id, s);
            while (!s.committed) {
                RuntimeException excluded = session.exclusion("agreement " + id, indexOf(members, session.worldRank()));
                if (excluded != null) {
                    throw excluded;
                }
                if (session.isClosed()) {
                    throw new IllegalStateException("the group was closed during agreement " + id);
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
                changed.await(200, TimeUnit.MILLISECONDS);
            }
            return s.decision.clone();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during agreement " + id, e);
        } finally {
            lock.unlock();
        }
    }

    void onMessage(Envelope e) {
        ByteBuffer b = e.payload().duplicate();
        byte type = b.get();
        long[] values = new long[b.getInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = b.getLong();
        }
        if (type < PROPOSE || type > COMMIT) {
            throw new IllegalArgumentException("unknown agreement message type " + type + " from world rank " + e.source());
        }
        lock.lock();
        try {
            State s = state(new Id(e.epoch(), e.tag()));
            int from = e.source();
            LOG.debug("agreement {}/{}: {} {} from {}", e.epoch(), e.tag(), NAMES[type], Arrays.toString(values), from);
            switch (type) {
                case PROPOSE -> s.proposals.put(from, values);
                case DECIDED -> s.reports.put(from, values);
                case DECIDE -> {
                    if (s.members != null && !s.committed && from == coordinator(s) && s.sentTo == from) {
                        s.decision = values;
                        send(from, e.epoch(), e.tag(), ACK, values);
                    }
                }
                case ACK -> s.acks.add(from);
                default -> { // COMMIT: every member the committer believed alive holds this value; it is final
                    s.decision = values;
                    s.committed = true;
                    changed.signalAll();
                }
            }
            if ((type == PROPOSE || type == DECIDED) && (s.committed || s.leading)) {
                // a member that turned to this one after it decided (it took over from a coordinator that
                // died, or committed as a member): it gets the commit, or the decision to acknowledge
                send(from, e.epoch(), e.tag(), s.committed ? COMMIT : DECIDE, s.decision);
            }
            if (s.members != null) {
                step(e.epoch(), e.tag(), s);
            }
        } finally {
            lock.unlock();
        }
    }

    void onMembershipChange() {
        lock.lock();
        try {
            for (Map.Entry<Id, State> en : states.entrySet()) {
                if (en.getValue().members != null) {
                    step(en.getKey().epoch(), en.getKey().id(), en.getValue());
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void step(int epoch, long id, State s) {
        if (s.committed || session.isExcluded()) {
            return;
        }
        int me = session.worldRank();
        int coord = coordinator(s);
        if (coord != me) {
            if (s.sentTo != coord) {
                s.sentTo = coord;
                send(coord, epoch, id, s.decision != null ? DECIDED : PROPOSE, s.decision != null ? s.decision : s.proposal);
            }
            return;
        }
        s.sentTo = me;
        Set<Integer> alive = session.aliveWorldRanks();
        if (!s.leading) {
            long[] acc = s.proposal.clone();
            long[] reported = null;
            for (int m : s.members) {
                if (m == me || !alive.contains(m)) {
                    continue;
                }
                long[] r = s.reports.get(m);
                long[] p = s.proposals.get(m);
                if (r == null && p == null) {
                    return; // never decide without having heard from every member believed alive
                }
                if (r != null) {
                    reported = r;
                } else {
                    combine(acc, p, s.op);
                }
            }
            s.decision = s.decision != null ? s.decision : reported != null ? reported : acc;
            s.leading = true;
            LOG.debug("agreement {}/{}: coordinator decides {}; alive {}", epoch, id, Arrays.toString(s.decision), alive);
            for (int m : s.members) {
                if (m != me && alive.contains(m)) {
                    send(m, epoch, id, DECIDE, s.decision);
                }
            }
        }
        for (int m : s.members) {
            if (m != me && alive.contains(m) && !s.acks.contains(m)) {
                return; // not every member believed alive holds the decision yet
            }
        }
        s.committed = true;
        LOG.debug("agreement {}/{}: commits {}; alive {}", epoch, id, Arrays.toString(s.decision), alive);
        for (int m : s.members) {
            if (m != me && alive.contains(m)) {
                send(m, epoch, id, COMMIT, s.decision);
            }
        }
        changed.signalAll();
    }

    private int coordinator(State s) {
        Set<Integer> alive = session.aliveWorldRanks();
        for (int m : s.members) {
            if (alive.contains(m)) {
                return m;
            }
        }
        return session.worldRank();
    }

    private static int indexOf(int[] members, int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return -1;
    }

    private static void combine(long[] acc, long[] p, Op op) {
        if (p.length != acc.length) {
            throw new IllegalArgumentException("agreement proposals differ in length: " + acc.length + " and " + p.length);
        }
        for (int i = 0; i < acc.length; i++) {
            acc[i] = op == Op.MIN ? Math.min(acc[i], p[i]) : acc[i] & p[i];
        }
    }

    private State state(Id id) {
        State s = states.get(id);
        if (s == null) {
            s = new State();
            states.put(id, s);
            if (states.size() > KEEP) {
                Iterator<State> it = states.values().iterator();
                it.next();
                it.remove();
            }
        }
        return s;
    }

    private void send(int to, int epoch, long id, byte type, long[] values) {
        LOG.debug("agreement {}/{}: {} {} to {}", epoch, id, NAMES[type], Arrays.toString(values), to);
        ByteBuffer b = ByteBuffer.allocate(1 + Integer.BYTES + values.length * Long.BYTES);
        b.put(type).putInt(values.length);
        for (long v : values) {
            b.putLong(v);
        }
        session.send(to, new Envelope(epoch, Envelope.Kind.AGREE, id, session.worldRank(), b.array()));
    }
}
