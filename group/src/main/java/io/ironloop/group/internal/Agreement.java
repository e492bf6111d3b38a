package io.ironloop.group.internal;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Fault-tolerant agreement among the surviving members of a group, coordinated by the lowest surviving
 * rank and safe against the coordinator's death.
 *
 * <p>Protocol, per agreement (epoch, id): every member sends its proposal to the member it believes is
 * the coordinator. The coordinator waits for a message from every member still alive, combines the
 * proposals (minimum or bitwise AND, order-independent) and sends the decision to all. When the
 * coordinator changes, each member sends to the new one either its proposal or, if it already holds a
 * decision, that decision; a coordinator that hears of an existing decision adopts it. A member accepts a
 * decision only from the coordinator it last sent to, so once it has handed its proposal to a new
 * coordinator, a late decision from the dead one cannot split the survivors. Hence every survivor returns
 * the same value, whoever dies during the call.
 */
final class Agreement {
    /** How proposals combine. */
    enum Op {
        MIN, AND
    }

    private static final byte PROPOSE = 0;
    private static final byte DECIDED = 1;
    private static final byte DECIDE = 2;
    private static final int KEEP = 64;

    private record Id(int epoch, long id) {
    }

    private static final class State {
        int[] members;
        long[] proposal;
        Op op;
        final Map<Integer, long[]> proposals = new HashMap<>();
        long[] reported;
        long[] decision;
        int decidedBy = -1;
        long[] earlyDecision;
        int earlySender = -1;
        int sentTo = -1;
    }

    private final Session session;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition decided = lock.newCondition();
    private final Map<Id, State> states = new LinkedHashMap<>();

    Agreement(Session session) {
        this.session = session;
    }

    /**
     * Runs agreement {@code id} of group {@code epoch} and waits for the decision.
     *
     * @param members world ranks of the group, in rank order
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
            if (s.earlyDecision != null && s.earlySender == coordinator(s)) {
                s.decision = s.earlyDecision;
            }
            step(epoch, id, s);
            while (s.decision == null) {
                if (session.isClosed()) {
                    throw new IllegalStateException("the group was closed during agreement " + id);
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
                decided.await(200, TimeUnit.MILLISECONDS);
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
        ByteBuffer b = ByteBuffer.wrap(e.payload());
        byte type = b.get();
        long[] values = new long[b.getInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = b.getLong();
        }
        lock.lock();
        try {
            State s = state(new Id(e.epoch(), e.tag()));
            int from = e.source();
            switch (type) {
                case PROPOSE -> {
                    s.proposals.put(from, values);
                    if (s.decision != null && s.members != null && coordinator(s) == session.worldRank()) {
                        session.send(from, message(e.epoch(), e.tag(), DECIDE, s.decision));
                    }
                }
                case DECIDED -> {
                    s.proposals.put(from, values);
                    if (s.reported == null) {
                        s.reported = values;
                    }
                    if (s.decision != null && s.members != null && coordinator(s) == session.worldRank()) {
                        session.send(from, message(e.epoch(), e.tag(), DECIDE, s.decision));
                    }
                }
                case DECIDE -> {
                    if (s.decision == null) {
                        if (s.members == null) {
                            s.earlyDecision = values;
                            s.earlySender = from;
                        } else if (from == coordinator(s) && s.sentTo == from) {
                            s.decision = values;
                            s.decidedBy = from;
                            decided.signalAll();
                        }
                    }
                }
                default -> throw new IllegalArgumentException("unknown agreement message type " + type + " from world rank " + from);
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
            decided.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void wakeAll() {
        lock.lock();
        try {
            decided.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void step(int epoch, long id, State s) {
        int me = session.worldRank();
        int coord = coordinator(s);
        if (coord == me) {
            if (s.decision != null) {
                return;
            }
            if (s.reported != null) {
                s.decision = s.reported;
            } else {
                long[] acc = s.proposal.clone();
                for (int m : s.members) {
                    if (m == me || !session.aliveWorldRanks().contains(m)) {
                        continue;
                    }
                    long[] p = s.proposals.get(m);
                    if (p == null) {
                        return;
                    }
                    combine(acc, p, s.op);
                }
                s.decision = acc;
            }
            s.decidedBy = me;
            for (int m : s.members) {
                if (m != me && session.aliveWorldRanks().contains(m)) {
                    session.send(m, message(epoch, id, DECIDE, s.decision));
                }
            }
            decided.signalAll();
        } else if (s.sentTo != coord) {
            s.sentTo = coord;
            session.send(coord, message(epoch, id, s.decision != null ? DECIDED : PROPOSE, s.decision != null ? s.decision : s.proposal));
        }
    }

    private int coordinator(State s) {
        for (int m : s.members) {
            if (session.aliveWorldRanks().contains(m)) {
                return m;
            }
        }
        return session.worldRank();
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

    private Envelope message(int epoch, long id, byte type, long[] values) {
        ByteBuffer b = ByteBuffer.allocate(1 + Integer.BYTES + values.length * Long.BYTES);
        b.put(type).putInt(values.length);
        for (long v : values) {
            b.putLong(v);
        }
        return new Envelope(epoch, Envelope.Kind.AGREE, id, session.worldRank(), b.array());
    }
}
