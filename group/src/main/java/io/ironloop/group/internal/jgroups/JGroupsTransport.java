package io.ironloop.group.internal.jgroups;

import io.ironloop.IronloopException;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.internal.Diagnostics;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Transport;
import io.ironloop.group.internal.TransportEvents;
import io.ironloop.group.launch.JobSecret;
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
    private final JobSecret secret;
    private final SecretHandshake handshake;
    private final Map<Integer, Address> addresses = new ConcurrentHashMap<>();
    private final Object formation = new Object();
    private volatile TransportEvents events;
    private volatile boolean formed;
    private volatile JChannel channel;
    private volatile DataPlane data;
    private final Map<Integer, java.net.InetSocketAddress> dataAddresses = new ConcurrentHashMap<>();
    /** Bulk payloads given back for reuse: at most what the JVM may hold on its heap (the direct-memory default). */
    private final io.ironloop.BufferPool buffers = new io.ironloop.BufferPool(Runtime.getRuntime().maxMemory());

    /**
     * A transport for {@code env}, bound and discovering as {@code config} and the environment say.
     *
     * @throws io.ironloop.ConfigurationException if the addresses cannot be worked out
     */
    public static JGroupsTransport create(io.ironloop.group.RankEnvironment env, GroupConfig config, JobSecret secret) {
        return new JGroupsTransport(env.rank(), env.size(), env.jobId(), config, NetworkPlan.of(env, config), secret);
    }

    JGroupsTransport(int rank, int size, String jobId, GroupConfig config, StackBuilder.Network network, JobSecret secret) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.config = config;
        this.network = network;
        this.secret = secret;
        this.handshake = new SecretHandshake(secret);
    }

    @Override
    public io.ironloop.BufferPool buffers() {
        return buffers;
    }

    /** {@code /dev/shm} where it exists, unless shared memory is switched off or the group encrypts its traffic. */
    @Override
    public java.nio.file.Path sharedMemoryDirectory() {
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        return config.sharedMemory() && !config.encrypt() && java.nio.file.Files.isDirectory(shm) ? shm : null;
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
                    : new DataPlane(rank, jobId, network.bindAddress(), handshake, this::dataAddress, buffers,
                            env -> events.onMessage(env));
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
        byte[] payload = kind == Envelope.Kind.P2P ? envelope.copy().bytes() : envelope.bytes();
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

    /**
     * Before anyone leaves: views stop closing connections to the members that leave ({@link GroupTcp}), and
     * FD_SOCK2 stops connecting to the next member whenever one leaves ({@link GroupFdSock}).
     */
    @Override
    public void prepareToCloseTogether() {
        JChannel ch = channel;
        if (ch == null) {
            return;
        }
        if (ch.getProtocolStack().getTransport() instanceof GroupTcp tcp) {
            tcp.keepConnections();
        }
        GroupFdSock sockets = ch.getProtocolStack().findProtocol(GroupFdSock.class);
        if (sockets != null) {
            sockets.standAside();
        }
    }

    /**
     * Every member leaves now, without waiting for any JGroups timeout. JGroups' leave protocol is made for
     * one member leaving a group that stays; when all left at once, thread dumps of rank JVMs that outlived
     * the others by 1-3 s at the end of a job showed three waits:
     * <ul>
     *   <li>a coordinator that left first handed over to the next member, which then installed views for the
     *       others leaving at the same time and waited up to {@code view_ack_collection_timeout} (2 s) for
     *       acknowledgements from members already gone, and its own close waited for that thread;</li>
     *   <li>a member whose leave request went to the departed coordinator, or whose answer was lost because
     *       the view without it closed the connection before the answer was written, waited up to
     *       {@code leave_timeout} (1 s);</li>
     *   <li>FD_SOCK2 answered every departure by connecting to the next member, which was leaving too: a
     *       process that is exiting still accepts connections but never answers, so the attempt waited
     *       {@code connect_timeout} ({@code TIME_MAX_WAIT}), and closing the channel waited up to 3 s for
     *       that pool thread.</li>
     * </ul>
     * So FD_SOCK2 stands aside from before the close agreement ({@link #prepareToCloseTogether()}; a crash
     * during the close is seen by the heartbeats), and the view's coordinator leaves last:
     * it stays until the others have closed their connections, which they do once their leave requests are
     * answered, within milliseconds, by a coordinator that stays, over connections that views no longer
     * close ({@link #prepareToCloseTogether()}). A member that agreed to close but never leaves (stopped) is
     * waited for at most {@link #lastToLeavePatience}.
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

    /**
     * Waits until no other member is connected: each closes its connections once its leave request has been
     * answered (or it crashed), so nobody is left who could still need this member.
     */
    private void awaitOthersGone(JChannel ch) {
        if (!(ch.getProtocolStack().getTransport() instanceof GroupTcp tcp)) {
            return;
        }
        long deadline = System.nanoTime() + lastToLeavePatience().toNanos();
        while (ch.isConnected() && tcp.getOpenConnections() > 0) {
            if (System.nanoTime() - deadline > 0) {
                LOG.warn("job {} rank {}: {} member(s) still connected {} after all agreed to close; leaving anyway", jobId, rank,
                        tcp.getOpenConnections(), io.ironloop.config.Units.formatDuration(lastToLeavePatience()));
                return;
            }
            try {
                Thread.sleep(GONE_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
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
