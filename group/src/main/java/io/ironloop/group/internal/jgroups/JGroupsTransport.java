package io.ironloop.group.internal.jgroups;

import io.ironloop.IronloopException;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.internal.Diagnostics;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Transport;
import io.ironloop.group.internal.TransportEvents;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.MERGE3;
import org.jgroups.util.ExtendedUUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Transport} on a JGroups channel whose cluster name is the job id. Each member's address
 * carries its world rank; the transport reports membership once all ranks are in one view, and from then
 * on maps every view to the set of live ranks.
 */
public final class JGroupsTransport implements Transport, Receiver {
    private static final Logger LOG = LoggerFactory.getLogger(JGroupsTransport.class);
    private static final String RANK_KEY = "ironloop.rank";
    private static final String DATA_KEY = "ironloop.data";
    private static final short HEADER_ID = 1733;

    private final int rank;
    private final int size;
    private final String jobId;
    private final GroupConfig config;
    private final StackBuilder.Network network;
    private final byte[] secret;
    private final SecretHandshake handshake;
    private final Map<Integer, Address> addresses = new ConcurrentHashMap<>();
    private final Object formation = new Object();
    private volatile TransportEvents events;
    private volatile boolean formed;
    private volatile JChannel channel;
    private volatile DataPlane data;
    private final Map<Integer, java.net.InetSocketAddress> dataAddresses = new ConcurrentHashMap<>();
    private final Object viewChange = new Object();
    /** Members of the newest view, guarded by {@link #viewChange}. */
    private int members;

    /**
     * A transport for {@code env}, bound and discovering as {@code config} and the environment say.
     *
     * @throws io.ironloop.ConfigurationException if the addresses cannot be worked out
     */
    public static JGroupsTransport create(io.ironloop.group.RankEnvironment env, GroupConfig config, byte[] secret) {
        return new JGroupsTransport(env.rank(), env.size(), env.jobId(), config, NetworkPlan.of(env, config), secret);
    }

    JGroupsTransport(int rank, int size, String jobId, GroupConfig config, StackBuilder.Network network, byte[] secret) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.config = config;
        this.network = network;
        this.secret = secret.clone();
        this.handshake = new SecretHandshake(secret);
    }

    @Override
    public int worldRank() {
        return rank;
    }

    @Override
    public int worldSize() {
        return size;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public void start(TransportEvents e) {
        this.events = e;
        long deadline = System.nanoTime() + config.joinTimeout().toNanos();
        try {
            DataPlane d = config.encrypt() ? null
                    : new DataPlane(rank, jobId, network.bindAddress(), handshake, this::dataAddress, env -> events.onMessage(env));
            data = d;
            JChannel ch = new JChannel(StackBuilder.build(config, network, secret, handshake, rank));
            channel = ch;
            ch.addAddressGenerator(() -> {
                ExtendedUUID a = ExtendedUUID.randomUUID("rank-" + rank).put(RANK_KEY, ByteBuffer.allocate(4).putInt(rank).array());
                return d == null ? a : a.put(DATA_KEY, ByteBuffer.allocate(4).putInt(d.port()).array());
            });
            ch.setReceiver(this);
            ch.setDiscardOwnMessages(true);
            SuspectObserver observer = ch.getProtocolStack().findProtocol(SuspectObserver.class);
            observer.sink(a -> {
                int r = rankOf(a);
                if (r >= 0) {
                    e.onSuspect(r);
                }
            });
            ch.connect(jobId);
        } catch (Exception ex) {
            close();
            throw new IronloopException("rank " + rank + " of job " + jobId + " could not start its group channel on "
                    + network.bindAddress().getHostAddress() + ":" + network.bindPort() + ": " + ex.getMessage(), ex);
        }
        synchronized (formation) {
            while (!formed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    Set<Integer> present = new TreeSet<>(addresses.keySet());
                    close();
                    throw new IronloopException("only ranks " + present + " of " + size + " joined job " + jobId + " within "
                            + config.joinTimeout().toSeconds() + " s: check that every rank started, that the peer list or discovery setting "
                            + "is right, and that all ranks read the same job secret");
                }
                try {
                    formation.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    close();
                    throw new IronloopException("interrupted while job " + jobId + " formed", ex);
                }
            }
        }
        // Once formed, a member that leaves the view is failed for good: never merge it back.
        channel.getProtocolStack().removeProtocol(MERGE3.class);
    }

    /** Where world rank {@code r} accepts data connections: its transport's host, the port its address carries. */
    private java.net.InetSocketAddress dataAddress(int r) {
        java.net.InetSocketAddress known = dataAddresses.get(r);
        if (known != null) {
            return known;
        }
        Address a = addresses.get(r);
        JChannel ch = channel;
        if (!(a instanceof ExtendedUUID u) || u.get(DATA_KEY) == null || ch == null) {
            return null;
        }
        Object physical = ch.getProtocolStack().getTransport().down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS, a));
        if (!(physical instanceof org.jgroups.stack.IpAddress ip)) {
            return null;
        }
        java.net.InetSocketAddress where = new java.net.InetSocketAddress(ip.getIpAddress(), ByteBuffer.wrap(u.get(DATA_KEY)).getInt());
        dataAddresses.put(r, where);
        return where;
    }

    private boolean hasDataPort(int r) {
        return addresses.get(r) instanceof ExtendedUUID u && u.get(DATA_KEY) != null;
    }

    static int rankOf(Address a) {
        if (a instanceof ExtendedUUID u) {
            byte[] b = u.get(RANK_KEY);
            if (b != null && b.length == 4) {
                return ByteBuffer.wrap(b).getInt();
            }
        }
        return -1;
    }

    @Override
    public void viewAccepted(View view) {
        synchronized (viewChange) {
            members = view.size();
            viewChange.notifyAll();
        }
        TreeSet<Integer> alive = new TreeSet<>();
        for (Address a : view.getMembers()) {
            int r = rankOf(a);
            if (r < 0 || r >= size) {
                LOG.error("job {}: member {} carries no valid rank (size {}); ignoring it", jobId, a, size);
                continue;
            }
            Address previous = addresses.get(r);
            if (previous != null && !previous.equals(a)) {
                if (view.containsMember(previous)) {
                    LOG.error("job {}: two members claim rank {}: {} and {}; ignoring the second", jobId, r, previous, a);
                    continue;
                }
                if (formed) {
                    LOG.error("job {}: rank {} came back as a new process {}; a failed rank never rejoins, ignoring it", jobId, r, a);
                    continue;
                }
            }
            if (previous == null) {
                addresses.put(r, a);
                if (!formed) {
                    events.onJoined(r);
                }
            }
            alive.add(r);
        }
        int leader = rankOf(view.getCoord());
        if (!formed) {
            if (alive.size() == size) {
                events.onMembership(alive, leader); // before start() returns, so the leader is known
                synchronized (formation) {
                    formed = true;
                    formation.notifyAll();
                }
            }
            return;
        }
        DataPlane d = data;
        if (d != null) {
            for (int r = 0; r < size; r++) {
                if (!alive.contains(r)) {
                    d.forget(r);
                }
            }
        }
        events.onMembership(alive, leader);
    }

    @Override
    public void receive(Message msg) {
        EnvelopeHeader h = msg.getHeader(HEADER_ID);
        if (h == null) {
            LOG.warn("job {}: dropping a message without an Ironloop header from {}", jobId, msg.getSrc());
            return;
        }
        if (h.source != rankOf(msg.getSrc())) {
            LOG.warn("job {}: dropping a message from {} that claims to come from rank {}", jobId, msg.getSrc(), h.source);
            return;
        }
        byte[] payload = msg.getArray();
        if (payload == null) {
            payload = new byte[0];
        } else if (msg.getOffset() != 0 || msg.getLength() != payload.length) {
            payload = java.util.Arrays.copyOfRange(payload, msg.getOffset(), msg.getOffset() + msg.getLength());
        }
        events.onMessage(h.toEnvelope(payload));
    }

    @Override
    public void send(int destWorldRank, Envelope envelope) {
        DataPlane d = data;
        Envelope.Kind kind = envelope.kind();
        if (d != null && (kind == Envelope.Kind.P2P || kind == Envelope.Kind.COLLECTIVE) && hasDataPort(destWorldRank)
                && d.send(destWorldRank, envelope)) {
            return;
        }
        Address dest = addresses.get(destWorldRank);
        JChannel ch = channel;
        if (dest == null || ch == null) {
            return;
        }
        // JGroups keeps the payload until it is acknowledged; a user's point-to-point buffer may be reused at once
        byte[] payload = kind == Envelope.Kind.P2P ? envelope.payload().clone() : envelope.payload();
        Message m = new BytesMessage(dest, payload).putHeader(HEADER_ID, new EnvelopeHeader(envelope));
        if (envelope.kind() == Envelope.Kind.AGREE || envelope.kind() == Envelope.Kind.FENCE) {
            m.setFlag(Message.Flag.OOB, Message.Flag.NO_FC);
        }
        try {
            ch.send(m);
        } catch (Exception ex) {
            LOG.debug("job {}: could not send to rank {} ({}); it is leaving or gone", jobId, destWorldRank, ex.toString());
        }
    }

    /** The channel, for tests that inspect or tune the JGroups stack; null before {@link #start}. */
    JChannel channel() {
        return channel;
    }

    @Override
    public int dataPort() {
        DataPlane d = data;
        return d == null ? -1 : d.port();
    }

    @Override
    public Diagnostics.Counts counts() {
        JChannel ch = channel;
        WireCounter w = ch == null ? null : ch.getProtocolStack().findProtocol(WireCounter.class);
        return new Diagnostics.Counts(w == null ? 0 : w.sent(), w == null ? 0 : w.received(), handshake.refusedConnections());
    }

    /** Views stop closing connections to the members that leave; see {@link GroupTcp}. */
    @Override
    public void prepareToCloseTogether() {
        JChannel ch = channel;
        if (ch != null && ch.getProtocolStack().getTransport() instanceof GroupTcp tcp) {
            tcp.keepConnections();
        }
    }

    /**
     * Every member leaves now: the view's coordinator leaves last. JGroups' leave protocol is made for one
     * member leaving a group that stays. When all leave at once, a coordinator that leaves first hands over
     * to the next member, which then installs views for the others leaving at the same time and waits up to
     * {@code view_ack_collection_timeout} (2 s) for acknowledgements from members already gone, while its
     * own close waits for that thread; and a member whose leave request went to the coordinator that left
     * waits up to {@code leave_timeout} (1 s) for an answer that never comes. Each made a rank JVM outlive
     * the others by 1–3 s at the end of a job. So the coordinator stays until it is alone in the view and
     * every other member has closed its connections: each other member's leave request is answered within
     * milliseconds by a coordinator that stays, over a connection that the view without it no longer closes
     * ({@link #prepareToCloseTogether()}), so the answer is never lost. A member that agreed to close but never leaves (stopped) is removed by
     * failure detection; the coordinator waits at most {@link #lastToLeavePatience}.
     */
    @Override
    public void closeTogether() {
        JChannel ch = channel;
        if (ch != null && formed && ch.getAddress() != null && ch.getView() != null
                && ch.getAddress().equals(ch.getView().getCoord())) {
            awaitOthersGone(ch);
        }
        close();
    }

    /**
     * How long the coordinator waits for the others to leave: the time failure detection takes to remove a
     * member that stopped (heartbeat timeout, one interval to notice, verification).
     */
    private java.time.Duration lastToLeavePatience() {
        return config.heartbeatTimeout().plus(config.heartbeatInterval()).plus(config.verifyTimeout());
    }

    /** How often the coordinator looks at its open connections while it waits for the others to close them. */
    private static final long GONE_POLL_MILLIS = 5;

    private void awaitOthersGone(JChannel ch) {
        long deadline = System.nanoTime() + lastToLeavePatience().toNanos();
        org.jgroups.protocols.TP tp = ch.getProtocolStack().getTransport();
        synchronized (viewChange) {
            while (ch.isConnected() && (members > 1 || tp instanceof GroupTcp tcp && tcp.getOpenConnections() > 0)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.warn("job {} rank {}: {} other member(s) still in the group {} after all agreed to close; leaving anyway", jobId,
                            rank, members - 1, io.ironloop.config.Units.formatDuration(lastToLeavePatience()));
                    return;
                }
                try {
                    // woken by a view change; connections closing are polled
                    viewChange.wait(Math.max(1, Math.min(GONE_POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left))));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        JChannel ch = channel;
        if (ch != null) {
            ch.close();
        }
        DataPlane d = data;
        if (d != null) {
            d.close();
        }
    }
}
