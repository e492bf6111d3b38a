package io.ironloop.sites;

import io.ironloop.core.Store;
import io.ironloop.sites.internal.ProtectorWire;
import io.ironloop.sites.internal.StoreService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protector of one node of a site (paper 004, Section 2.1: RADIC's node level), and the controller failover of the
 * site's cluster protector. The node protectors of a site form a heartbeat/watchdog ring in node order: each watches
 * the node before it and sends heartbeats to the node after it (so the controller, the site's first node, is watched by
 * the next node). The rule is Algorithm 2's ({@link SiteDetector} on the ring of nodes): a node silent for the timeout
 * is declared failed only when the node on its other side cannot reach it either; a node protector that has lost both
 * neighbours stops itself, and with it the cluster protector it runs, if any.
 *
 * <p>A lost node leaves the table ({@link Topology#nodeLost}); when it was the controller, its watcher — the next node
 * of the site — starts the site's cluster protector on a new socket of its own, and the table of version + 1 names it
 * ({@link Topology#failover}), announced to every cluster protector and to the site's node protectors. Meanwhile the
 * site is not declared failed: a third site checking it counts it alive when any of its node protectors answers. The
 * site checkpoint the site holds for the site it protects survives: the cluster protector mirrors its held copies on
 * the backup node (the next node after the controller, the one that takes over), whose node protector keeps them in
 * {@code heldFolder}, where the new cluster protector finds them; and the protected site ships its newest lines to
 * the new address at once.
 *
 * <p>A cluster protector cut off from both neighbour sites while its node lives asks, before it stops itself, the
 * site's other nodes to take it over ({@code TAKE_OVER}); a node does — the same failover, the old controller as the
 * lost node — only if it reaches a neighbour site's protector itself. In a site cut off from the others none does, and
 * the cluster protector stops alone: the role is not handed round a partitioned site.
 *
 * <p>Every connection proves the job secret ({@link ProtectorWire}). Threading: thread-safe; its threads are daemons;
 * {@link #close()} stops them and the cluster protector it runs.
 */
public final class NodeProtector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeProtector.class);

    private final SiteProtector.Config config;
    private final String node;
    private final ServerSocket server;
    private final Consumer<SiteEvent> events;
    private final ExecutorService connections = Executors.newCachedThreadPool(SiteProtector.daemon("ironloop-node-protector-conn"));
    private final ExecutorService work = Executors.newSingleThreadExecutor(SiteProtector.daemon("ironloop-node-protector-work"));
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(SiteProtector.daemon("ironloop-node-protector-tick"));
    private volatile Topology table;
    private SiteDetector detector; // guarded by this
    private volatile SiteProtector cluster; // the site's cluster protector when it runs on this node
    private volatile boolean closed;
    private final Map<String, Store> held = new ConcurrentHashMap<>(); // mirrored held copies, by held site
    private final ProtectorCalls.Heartbeats heartbeats;

    private NodeProtector(SiteProtector.Config config, String node, ServerSocket server, SiteProtector cluster, Consumer<SiteEvent> events) {
        this.config = config;
        this.node = node;
        this.server = server;
        this.cluster = cluster;
        this.events = events;
        this.table = config.table();
        this.heartbeats = new ProtectorCalls.Heartbeats(config.secret(), config.encrypt());
    }

    /**
     * Starts the protector of {@code node} on a socket already bound to its address in the table
     * ({@link Topology#withNodeProtectors}).
     *
     * @param site the site's configuration: its table (with every node protector's address), its store, where a
     *     cluster protector started here by a failover keeps the lines it holds ({@code heldFolder}), the secret, the
     *     heartbeat and the timeout
     * @param node this node, one of the site's nodes with a node protector in the table
     * @param bound the socket, bound (see {@link SiteProtector#listen})
     * @param cluster the site's cluster protector when it runs on this node (the controller node), stopped with this
     *     one
     * @param events told of everything this protector and a cluster protector it starts do; called on their threads,
     *     must be fast and never throw
     * @throws IllegalArgumentException if {@code node} has no node protector of {@code site} in the table
     */
    public static NodeProtector start(SiteProtector.Config site, String node, ServerSocket bound, Optional<SiteProtector> cluster,
            Consumer<SiteEvent> events) {
        Objects.requireNonNull(node, "node");
        if (!site.table().nodeProtectors(site.site()).containsKey(node)) {
            throw new IllegalArgumentException("node " + node + " has no node protector of site " + site.site() + " in the table: give its"
                    + " host:port with Topology.withNodeProtectors");
        }
        NodeProtector p = new NodeProtector(site, node, bound, cluster.orElse(null), events);
        cluster.ifPresent(c -> c.onCutOff(p::handOver));
        p.adopt(site.table(), true);
        Thread acceptor = SiteProtector.daemon("ironloop-node-protector-" + node).newThread(p::acceptLoop);
        acceptor.start();
        long period = site.heartbeat().toMillis();
        p.ticker.scheduleWithFixedDelay(p::tick, period, period, TimeUnit.MILLISECONDS);
        return p;
    }

    /** This node. */
    public String node() {
        return node;
    }

    /** The address this node protector listens on. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** The table this node protector holds now. */
    public Topology table() {
        return table;
    }

    /**
     * The site's cluster protector this node runs (from the start, or since a failover), until this node protector
     * stops; it may have stopped itself meanwhile (cut off from both neighbour sites, or superseded).
     */
    public Optional<SiteProtector> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** Whether this node protector still runs (it stops itself when cut off or declared failed). */
    public boolean running() {
        return !closed;
    }

    // ---- the table and the ring

    private void adopt(Topology next, boolean first) {
        String why = null;
        synchronized (this) {
            if (!first) {
                Topology merged = table.merge(next); // the newer, or both of two changes made at the same time
                if (merged.equals(table)) {
                    return;
                }
                next = merged;
            }
            table = next;
            if (!next.has(config.site()) || next.site(config.site()).spare()) {
                why = "site " + config.site() + " left the table v" + next.version() + " (declared failed and replaced)";
            } else if (!next.nodeProtectors(config.site()).containsKey(node)) {
                why = "node " + node + " left the table v" + next.version() + " of site " + config.site()
                        + ": its ring neighbours declared it failed";
            } else {
                List<String> ring = ring(next);
                long now = System.nanoTime();
                if (detector == null) {
                    // the other nodes' protectors may start later: silence counts only after the start grace
                    detector = new SiteDetector(node, ring, config.timeout(),
                            now + config.timeout().multipliedBy(SiteProtector.START_GRACE_TIMEOUTS).toNanos());
                } else {
                    detector.ring(ring, now);
                }
            }
        }
        if (why != null) {
            stop(why);
        }
    }

    /**
     * The ring of a site's node protectors: its nodes in reverse node order, so that each watches the node before it
     * ({@link SiteDetector} watches the next member of its ring) and the controller, the first node, is watched by the
     * second.
     */
    private List<String> ring(Topology t) {
        List<String> ring = new ArrayList<>(t.nodeProtectors(config.site()).keySet());
        Collections.reverse(ring);
        return ring;
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            heartbeat();
            if (closed) {
                return; // the heartbeat's answer made it step down: it judges nobody any more
            }
            List<SiteDetector.Action> actions;
            synchronized (this) {
                actions = detector == null ? List.of() : detector.tick(System.nanoTime());
            }
            actions.forEach(this::act);
        } catch (RuntimeException e) {
            LOG.warn("node {} of site {}: protector loop: {}", node, config.site(), e.toString(), e);
        }
    }

    private void heartbeat() {
        String to;
        synchronized (this) {
            if (detector == null || detector.ring().size() < 2) {
                return;
            }
            to = detector.protector();
        }
        Topology mine = table;
        try {
            ProtectorCalls.HeartbeatAnswer answer = heartbeats.beat(addressOf(mine, to), node, mine, config.timeout().dividedBy(2));
            synchronized (this) {
                detector.heartbeatAcked(System.nanoTime());
            }
            if (!answer.newerTable().isEmpty()) {
                adopt(Topology.parse(answer.newerTable()), false);
            } else if (answer.version() < mine.version()) {
                ProtectorCalls.announce(addressOf(mine, to), config.secret(), config.encrypt(), node, mine, config.timeout());
            }
        } catch (IOException e) {
            LOG.debug("node {}: heartbeat to node {} failed: {}", node, to, e.toString());
        }
    }

    private void act(SiteDetector.Action a) {
        if (a instanceof SiteDetector.Action.AskToCheck ask) {
            LOG.warn("node {} of site {}: no heartbeat from node {} for {} ms; asking node {} to check it", node, config.site(), ask.target(),
                    config.timeout().toMillis(), ask.third());
            work.execute(() -> {
                boolean reached;
                try {
                    reached = ProtectorCalls.check(addressOf(table, ask.third()), config.secret(), config.encrypt(), node, ask.target(), config.timeout());
                } catch (IOException | RuntimeException e) {
                    LOG.warn("node {}: node {} could not be asked to check node {}: {}", node, ask.third(), ask.target(), e.toString());
                    reached = false;
                }
                List<SiteDetector.Action> next;
                synchronized (this) {
                    next = detector == null ? List.of() : detector.verified(ask.target(), ask.third(), reached, System.nanoTime());
                }
                next.forEach(this::act);
            });
        } else if (a instanceof SiteDetector.Action.LinkCut cut) {
            LOG.warn("node {} of site {}: node {} still reaches node {}: only the link to it is cut; nothing declared", node, config.site(),
                    cut.third(), cut.target());
        } else if (a instanceof SiteDetector.Action.DeclareFailed d) {
            LOG.error("node {} of site {}: node {} declared failed ({})", node, config.site(), d.target(), d.verifiedBy().isEmpty()
                    ? "a ring of two nodes: nobody else could confirm" : "node " + d.verifiedBy() + " cannot reach it either");
            events.accept(new SiteEvent.NodeDeclared(config.site(), node, d.target(), d.verifiedBy()));
            work.execute(() -> lost(d.target()));
        } else if (a instanceof SiteDetector.Action.StopSelf s) {
            stop(s.reason());
        }
    }

    /** A node of the site is lost: the table without it, and the cluster protector here if it was the controller. */
    private void lost(String failed) {
        Topology t = table;
        if (!t.has(config.site()) || !t.site(config.site()).nodes().contains(failed)) {
            return; // already gone from the table
        }
        try {
            if (!t.site(config.site()).controller().equals(failed)) {
                Topology next = t.nodeLost(config.site(), failed);
                adopt(next, false);
                announce(next, t.site(config.site()).protector()); // the cluster protector; other sites learn it by heartbeat
                next.nodeProtectors(config.site()).forEach((n, at) -> announce(next, at));
                return;
            }
            failover(t, failed);
        } catch (IOException | RuntimeException e) {
            LOG.error("node {} of site {}: handling the loss of node {} failed: {}", node, config.site(), failed, e.toString(), e);
        }
    }

    private void failover(Topology t, String failed) throws IOException {
        long start = System.nanoTime();
        // on this node's interface, a port the kernel chooses; named by the host others reach this node protector at
        ServerSocket socket = SiteProtector.listen(new InetSocketAddress(server.getInetAddress(), 0));
        String at = addressOf(t, node).getHostString() + ":" + socket.getLocalPort();
        Topology next = t.failover(config.site(), node, at);
        SiteProtector p;
        try {
            p = SiteProtector.start(new SiteProtector.Config(config.site(), next, config.siteFolder(), config.heldFolder(), config.secret(),
                    config.heartbeat(), config.timeout(), config.encrypt()), socket, events);
        } catch (RuntimeException e) {
            socket.close();
            throw e;
        }
        p.onCutOff(this::handOver);
        synchronized (this) {
            if (closed) {
                p.close();
                return;
            }
            cluster = p;
        }
        adopt(next, false);
        LOG.warn("node {} of site {}: the controller node {} is lost; this node runs the site's cluster protector now, at {} (table v{}, {} ms)",
                node, config.site(), failed, at, next.version(), (System.nanoTime() - start) / 1_000_000);
        events.accept(new SiteEvent.FailedOver(config.site(), node, failed, at, next.version()));
        p.announceEverywhere(next);
    }

    /**
     * The cluster protector this node runs is cut off from both neighbour sites: asks the site's other nodes, in node
     * order, to take it over; one does only if it reaches a neighbour site itself (the fault is then this node's own
     * links, not the site's). In a site partitioned from the others none does, and the cluster protector stops alone —
     * so the role is not handed round a partitioned site, each node taking it and stopping in turn.
     *
     * @return whether a node took over
     */
    private boolean handOver() {
        Topology t = table;
        for (String n : t.nodeProtectors(config.site()).keySet()) {
            if (n.equals(node)) {
                continue;
            }
            try {
                if (ProtectorCalls.takeOver(addressOf(t, n), config.secret(), config.encrypt(), node, config.timeout())) {
                    LOG.warn("node {} of site {}: the site's cluster protector here is cut off from both neighbour sites; node {} reaches"
                            + " one and takes it over", node, config.site(), n);
                    return true;
                }
            } catch (IOException e) {
                LOG.warn("node {} of site {}: node {} could not be asked to take the cluster protector over: {}", node, config.site(), n,
                        e.toString());
            }
        }
        LOG.warn("node {} of site {}: no other node of the site reaches a neighbour site: the site's cluster protector stops alone",
                node, config.site());
        return false;
    }

    /**
     * Whether this node reaches the cluster protector of a neighbour site of its own (the site it ships to, or the one it
     * watches), all asked at once.
     */
    private boolean reachesANeighbourSite(Topology t) {
        List<InetSocketAddress> at = new ArrayList<>();
        for (Topology.Site s : List.of(t.protectorOf(config.site()), t.protectedBy(config.site()))) {
            if (!s.name().equals(config.site())) {
                at.add(SiteProtector.address(s.protector()));
            }
        }
        return ProtectorCalls.pingAny(at, config.secret(), config.encrypt(), node, config.timeout(), connections);
    }

    private void announce(Topology t, String at) {
        try {
            ProtectorCalls.announce(SiteProtector.address(at), config.secret(), config.encrypt(), node, t, config.timeout());
        } catch (IOException e) {
            LOG.info("node {}: the table v{} did not reach {} ({}); it learns it by heartbeat", node, t.version(), at, e.toString());
        }
    }

    private static InetSocketAddress addressOf(Topology t, String node) {
        return SiteProtector.address(t.nodeProtectors(t.sites().stream().filter(s -> s.nodes().contains(node)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("node " + node + " is in no site of " + t)).name()).get(node));
    }

    // ---- serving the other node protectors, and third sites' checks

    private void acceptLoop() {
        ProtectorCalls.acceptLoop(server, () -> closed, connections, this::serve, "node " + node);
    }

    private void serve(Socket s) {
        try {
            ProtectorCalls.serve(s, config.secret(), config.encrypt(), config.timeout(), () -> closed, this::serveOne);
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.debug("node {}: a connection from {} ended: {}", node, s.getRemoteSocketAddress(), e.toString());
            }
        }
    }

    private void serveOne(ProtectorWire w, String op, String from, String scope) throws IOException {
        switch (op) {
            case "HEARTBEAT" -> {
                Topology mine = table;
                synchronized (this) {
                    if (detector != null) {
                        detector.heartbeatFrom(from, System.nanoTime());
                    }
                }
                ProtectorCalls.answerHeartbeat(w, mine);
            }
            case "PING" -> w.out.writeBoolean(true); // a third site checking this site: a live node counts
            case "CHECK" -> {
                String target = w.in.readUTF();
                Topology t = table;
                boolean reached = t.nodeProtectors(config.site()).containsKey(target)
                        && ProtectorCalls.ping(SiteProtector.address(t.nodeProtectors(config.site()).get(target)), config.secret(), config.encrypt(), node,
                                config.timeout());
                LOG.info("node {}: node {} asked whether node {} is reachable from here: {}", node, from, target, reached);
                w.out.writeBoolean(true);
                w.out.writeBoolean(reached);
            }
            case "TABLE" -> {
                Topology next = Topology.parse(w.in.readUTF());
                w.out.writeBoolean(true);
                w.out.flush();
                adopt(next, false);
            }
            case "GET_TABLE" -> {
                w.out.writeBoolean(true);
                w.out.writeUTF(table.encode());
            }
            case "TAKE_OVER" -> { // the controller's cluster protector is cut off from both neighbour sites
                Topology t = table;
                boolean take = !closed && cluster == null && t.has(config.site()) && t.site(config.site()).controller().equals(from)
                        && reachesANeighbourSite(t);
                LOG.warn("node {} of site {}: node {} asks this node to take the site's cluster protector over: {}", node, config.site(),
                        from, take ? "it reaches a neighbour site, taking over" : "refused (it reaches no neighbour site, or is not asked by"
                        + " the controller)");
                if (take) {
                    work.execute(() -> {
                        try {
                            failover(t, from);
                        } catch (IOException | RuntimeException e) {
                            LOG.error("node {} of site {}: taking the cluster protector over from node {} failed: {}", node, config.site(),
                                    from, e.toString(), e);
                        }
                    });
                }
                w.out.writeBoolean(true);
                w.out.writeBoolean(take);
            }
            default -> { // the cluster protector mirrors the site checkpoint it holds here ("HELD", from the held site's name)
                if (!"HELD".equals(scope) || !StoreService.serve(op, held.computeIfAbsent(from, f -> Store.directory(config.heldFolder()
                        .resolve(f))), w)) {
                    StoreService.fail(w, "operation " + op + " on " + scope + " is not served by a node protector");
                }
            }
        }
    }

    // ---- stopping

    private void stop(String reason) {
        if (closed) {
            return;
        }
        LOG.error("node {} of site {}: {}; stopping this node protector{}", node, config.site(), reason, cluster == null ? ""
                : " and the site's cluster protector it runs");
        events.accept(new SiteEvent.NodeStopped(config.site(), node, reason));
        close();
    }

    /** Stops this node protector and the site's cluster protector it runs, if any. */
    @Override
    public void close() {
        SiteProtector c;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            c = cluster;
            cluster = null;
        }
        ticker.shutdown();
        heartbeats.close();
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("node {}: closing the server socket: {}", node, e.toString());
        }
        connections.shutdownNow();
        work.shutdownNow();
        if (c != null) {
            c.close();
        }
        held.values().forEach(Store::close);
    }
}
