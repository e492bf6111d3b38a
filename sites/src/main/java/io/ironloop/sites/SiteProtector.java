package io.ironloop.sites;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.internal.ProtectorStore;
import io.ironloop.sites.internal.ProtectorWire;
import io.ironloop.sites.internal.StoreService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster protector of one site (paper 004, Section 3): runs on the site's controller node, next to its ranks (or,
 * after the controller node was lost, on the node that took over: {@link NodeProtector}). It
 * <ul>
 *   <li>protects (Algorithm 1): copies every line its site's ranks commit in the site store (the series {@code rank-N} of
 *       the ranks the table puts on this site, and every series not named after a rank) to the protector of the
 *       previous site in the ring, in the background ({@link LineReplicator} over a {@link ProtectorStore}: the same
 *       whole-line copy as the remote levels, each file CRC32C-checked and published atomically there);</li>
 *   <li>detects (Algorithm 2): heartbeats to its protector, watches the next site, asks the site after that to check
 *       before declaring it failed, stops itself when cut off ({@link SiteDetector});</li>
 *   <li>recovers (Algorithm 3): places the lost site's lines, which it holds, on the spare site or its own site
 *       ({@link SiteRecovery});</li>
 *   <li>masks (Algorithm 4): announces the new table to every protector; a protector that missed it learns it from the
 *       next heartbeat, supervisors ask any protector for it ({@link #fetchTable}), and a rank of its site that tells it
 *       of a committed line ({@code COMMITTED}, which makes it look at the store at once) gets it in the answer, or finds
 *       it through its {@link SiteDirectory} when this protector moved;</li>
 *   <li>with a node level: mirrors the site checkpoint it holds on its site's backup node, counts a site alive when any
 *       of its node protectors answers a check, steps down when a table names another protector for its site, and, cut
 *       off from both neighbour sites, hands its role to another node of its site that still reaches one
 *       ({@link NodeProtector}).</li>
 * </ul>
 * A spare site's protector only serves (it receives the lost site's lines) until a table puts it in the ring.
 *
 * <p>Every connection proves the job secret ({@link ProtectorWire}). Threading: thread-safe; its threads are daemons;
 * {@link #close()} stops them.
 */
public final class SiteProtector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SiteProtector.class);
    private static final int HELD_LINES = 3;
    /** How many timeouts a starting protector waits for its neighbours before their silence counts. */
    static final int START_GRACE_TIMEOUTS = 5;

    /**
     * How a protector runs.
     *
     * @param site its site, a row of {@code table}
     * @param table the table, with every protector's address
     * @param siteFolder the site store: where the site's ranks write their lines ({@code FT_FOLDER} of the site)
     * @param heldFolder where it keeps the lines of the site it protects ({@code heldFolder/SITE/series/...})
     * @param secret the job secret
     * @param heartbeat between heartbeats (and between looks for new lines)
     * @param timeout silence after which a neighbour is suspected
     * @param encrypt {@code SITE_ENCRYPT}: every connection encrypted after its handshake (all protectors of a job alike)
     */
    public record Config(String site, Topology table, Path siteFolder, Path heldFolder, JobSecret secret, Duration heartbeat,
            Duration timeout, boolean encrypt) {
        /** A configuration whose connections are not encrypted ({@code SITE_ENCRYPT} false). */
        public Config(String site, Topology table, Path siteFolder, Path heldFolder, JobSecret secret, Duration heartbeat,
                Duration timeout) {
            this(site, table, siteFolder, heldFolder, secret, heartbeat, timeout, false);
        }

        /**
         * Checks the fields.
         *
         * @throws IllegalArgumentException if the site is not in the table or has no protector address, or the timeout
         *     is not above twice the heartbeat
         */
        /**
         * A configuration with the heartbeat, timeout and encryption of {@code SITE_HEARTBEAT}, {@code SITE_TIMEOUT} and
         * {@code SITE_ENCRYPT}.
         *
         * @throws IllegalArgumentException as the canonical constructor
         */
        public static Config of(String site, Topology table, Path siteFolder, Path heldFolder, JobSecret secret,
                io.ironloop.config.Parameters parameters) {
            return new Config(site, table, siteFolder, heldFolder, secret, parameters.get(io.ironloop.group.GroupKeys.SITE_HEARTBEAT),
                    parameters.get(io.ironloop.group.GroupKeys.SITE_TIMEOUT), parameters.get(io.ironloop.group.GroupKeys.SITE_ENCRYPT));
        }

        public Config {
            Objects.requireNonNull(secret, "secret");
            Objects.requireNonNull(siteFolder, "siteFolder");
            Objects.requireNonNull(heldFolder, "heldFolder");
            if (table.site(site).protector().isEmpty()) {
                throw new IllegalArgumentException("site " + site + " has no protector address in the table: give host:port");
            }
            if (timeout.compareTo(heartbeat.multipliedBy(2)) <= 0) {
                throw new IllegalArgumentException("the detection timeout " + timeout + " must exceed two heartbeats (" + heartbeat + ")");
            }
        }
    }

    private final Config config;
    private final Consumer<SiteEvent> events;
    private final ServerSocket server;
    private final Store siteStore;
    private final Map<String, Store> held = new ConcurrentHashMap<>();
    private final ExecutorService connections = Executors.newCachedThreadPool(daemon("ironloop-protector-conn"));
    private final ExecutorService work = Executors.newSingleThreadExecutor(daemon("ironloop-protector-work"));
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("ironloop-protector-tick"));
    private final Map<String, Long> submitted = new HashMap<>();
    private final ProtectorCalls.Heartbeats heartbeats;
    private volatile Topology table;
    private SiteDetector detector; // guarded by this
    private LineReplicator replicator; // guarded by this
    private String replicatingTo = ""; // guarded by this
    private LineReplicator mirror; // guarded by this: the held copies of the watched site, mirrored on the backup node
    private String mirroring = ""; // guarded by this: SITE@host:port of the mirror, empty without one
    private final Map<String, Long> mirrored = new HashMap<>(); // guarded by this
    private volatile boolean closed;
    private volatile java.util.function.BooleanSupplier handOver = () -> false;

    private SiteProtector(Config config, ServerSocket bound, Consumer<SiteEvent> events) {
        this.config = config;
        this.server = bound;
        this.events = events;
        this.table = config.table();
        this.siteStore = Store.directory(config.siteFolder());
        this.heartbeats = new ProtectorCalls.Heartbeats(config.secret(), config.encrypt());
    }

    /**
     * Starts a protector on a socket already bound to its address in the table (bind it first to let the kernel
     * choose the port, then put the address in the table).
     *
     * @param events told of everything the protector does; called on its threads, must be fast and never throw
     */
    public static SiteProtector start(Config config, ServerSocket bound, Consumer<SiteEvent> events) {
        SiteProtector p = new SiteProtector(config, bound, events);
        p.adopt(config.table());
        Thread acceptor = daemon("ironloop-protector-" + config.site()).newThread(p::acceptLoop);
        acceptor.start();
        long period = config.heartbeat().toNanos();
        p.ticker.scheduleWithFixedDelay(p::tick, period, period, TimeUnit.NANOSECONDS);
        LOG.info("site {}: cluster protector on {}, site store {}, table v{}:\n{}", config.site(), bound.getLocalSocketAddress(),
                config.siteFolder(), config.table().version(), config.table().table());
        return p;
    }

    /** Binds the address of {@code site} in {@code table} and starts its protector there. */
    public static SiteProtector start(Config config, Consumer<SiteEvent> events) throws IOException {
        return start(config, listen(address(config.table().site(config.site()).protector())), events);
    }

    /**
     * A protector's listening socket bound to {@code at} (port 0: the kernel chooses), with the large receive buffer
     * its connections stream line files through ({@link ProtectorWire#SOCKET_BUFFER}, set before binding so that the
     * window scale allows it).
     *
     * @throws IOException if it cannot be bound
     */
    public static ServerSocket listen(InetSocketAddress at) throws IOException {
        ServerSocket s = ProtectorWire.prepare(new ServerSocket());
        try {
            s.bind(at, 50);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * What this protector does when it is cut off from both neighbour sites, before it stops itself: {@code handOver}
     * (the node protector running it, {@link NodeProtector}) asks the site's other nodes to take the role over and
     * says whether one did. Without it the protector stops alone.
     */
    void onCutOff(java.util.function.BooleanSupplier handOver) {
        this.handOver = Objects.requireNonNull(handOver, "handOver");
    }

    /** The table this protector holds now. */
    public Topology table() {
        return table;
    }

    /** The address this protector listens on. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** Where this protector keeps the lines of {@code site} (a site it protects or protected). */
    public Path heldFolder(String site) {
        return config.heldFolder().resolve(site);
    }

    /**
     * Asks a protector for its table: how ranks and supervisors learn where a moved site's ranks run now.
     *
     * @throws IOException if it cannot be reached or does not prove the job secret
     */
    public static Topology fetchTable(InetSocketAddress protector, JobSecret secret, Duration timeout) throws IOException {
        return fetchTable(protector, secret, false, timeout);
    }

    /**
     * {@link #fetchTable(InetSocketAddress, JobSecret, Duration)} from a protector whose connections are encrypted or not
     * ({@code SITE_ENCRYPT}, which must match the protector's).
     *
     * @throws IOException if it cannot be reached, does not prove the job secret, or its {@code SITE_ENCRYPT} differs
     */
    public static Topology fetchTable(InetSocketAddress protector, JobSecret secret, boolean encrypt, Duration timeout) throws IOException {
        try (ProtectorWire w = ProtectorWire.connect(protector, secret, encrypt, timeout)) {
            w.out.writeUTF("GET_TABLE");
            w.out.writeUTF("-");
            w.out.writeUTF("-");
            w.expectOk("asking for the table");
            return Topology.parse(w.in.readUTF());
        }
    }

    /**
     * The store a protector keeps for {@code fromSite}'s lines, reached over the network: what a site's lines are
     * replicated to (a {@link RemoteLevel} of a {@link LineReplicator}). Every operation proves the job secret.
     */
    public static Store heldStore(InetSocketAddress protector, String fromSite, JobSecret secret, Duration timeout) {
        return heldStore(protector, fromSite, secret, false, timeout);
    }

    /**
     * {@link #heldStore(InetSocketAddress, String, JobSecret, Duration)} over connections encrypted or not
     * ({@code SITE_ENCRYPT}, which must match the protector's).
     */
    public static Store heldStore(InetSocketAddress protector, String fromSite, JobSecret secret, boolean encrypt, Duration timeout) {
        return new ProtectorStore(protector, fromSite, ProtectorStore.Scope.HELD, secret, encrypt, timeout);
    }

    /** Parses {@code host:port}. */
    public static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("a protector address is host:port, not '" + hostPort + "'");
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    // ---- the table and what follows from it

    /**
     * Adopts the merge of {@code heard} and the table this protector works on ({@link Topology#merge}: the newer one, or
     * both changes of two made at the same time).
     *
     * @return the table adopted, or null when it is the one held already
     */
    private synchronized Topology adopt(Topology heard) {
        Topology next = heard;
        if (detector != null) {
            next = detector.topology().merge(heard);
            if (next.equals(detector.topology())) {
                return null; // nothing newer than the table this protector works on
            }
        }
        table = next;
        boolean active = next.ring().stream().anyMatch(s -> s.name().equals(config.site()));
        if (!active) {
            if (detector != null) { // this site ran ranks and no longer does: it was declared failed and replaced meanwhile
                String reason = "site " + config.site() + " left the ring in table v" + next.version() + ": declared failed and replaced"
                        + " while this protector was silent (stopped or cut off); it steps down";
                LOG.warn("{}", reason);
                events.accept(new SiteEvent.Stopped(config.site(), reason));
                closeQuietly();
            }
            detector = null;
            return next;
        }
        String mine = config.table().site(config.site()).protector();
        String now = next.site(config.site()).protector();
        if (!now.equals(mine)) { // another node of this site took the cluster protector's role (a controller failover)
            String reason = "site " + config.site() + "'s cluster protector is now at " + now + " (table v" + next.version()
                    + "): this one, at " + mine + ", steps down";
            LOG.warn("{}", reason);
            events.accept(new SiteEvent.Stopped(config.site(), reason));
            closeQuietly();
            return next;
        }
        long nowNanos = System.nanoTime();
        if (detector == null) {
            // the neighbours' protectors may start later (a JVM each, on a loaded machine): silence counts only after a
            // start grace, or from the first heartbeat heard or acknowledged, whichever comes first
            detector = new SiteDetector(config.site(), next, config.timeout(),
                    nowNanos + config.timeout().multipliedBy(START_GRACE_TIMEOUTS).toNanos());
        } else {
            detector.topology(next, nowNanos);
        }
        String to = next.protectorOf(config.site()).name();
        String toAddress = next.protectorOf(config.site()).protector();
        if (to.equals(config.site())) {
            LOG.warn("site {} is the only site left running ranks: nobody keeps its checkpoints, the job runs on exposed", config.site());
        }
        // a new protecting site, or the same one failed over to another node: its newest lines are shipped there again
        if (!(to + "@" + toAddress).equals(replicatingTo)) {
            if (replicator != null) {
                LineReplicator old = replicator;
                work.execute(old::close);
            }
            replicatingTo = to + "@" + toAddress;
            replicator = to.equals(config.site()) ? null : new LineReplicator(siteStore, List.of(new RemoteLevel("site",
                    heldStore(address(toAddress), config.site(), config.secret(), config.encrypt(), config.timeout()), HELD_LINES)), new LineReplicator.Listener() {
                @Override
                public void copied(String level, LineInfo line, Duration took, long bytes) {
                    events.accept(new SiteEvent.Shipped(config.site(), line.series(), line.iteration(), bytes, took));
                }
            });
            submitted.clear();
        }
        mirrorOn(next);
        return next;
    }

    /**
     * The held copies of the site this protector watches are mirrored on the site's backup node — the node protector
     * of the next node after the controller, which takes the cluster protector's role if the controller node is lost
     * ({@link NodeProtector}) — so that the site checkpoint this site holds survives its controller node.
     */
    private void mirrorOn(Topology next) { // guarded by this (from adopt)
        String held = next.protectedBy(config.site()).name();
        String backup = backupNode(next);
        String key = backup == null || held.equals(config.site()) ? "" : held + "@" + backup;
        if (key.equals(mirroring)) {
            return;
        }
        if (mirror != null) {
            LineReplicator old = mirror;
            work.execute(old::close);
        }
        mirroring = key;
        mirrored.clear();
        mirror = key.isEmpty() ? null : new LineReplicator(heldCopies(held), List.of(new RemoteLevel("mirror", new ProtectorStore(
                address(backup), held, ProtectorStore.Scope.HELD, config.secret(), config.encrypt(), config.timeout()), HELD_LINES)), LineReplicator.Listener.NONE);
    }

    /** The node protector's address of the site's next node after its controller, or null without a node level. */
    private String backupNode(Topology t) {
        Topology.Site row = t.site(config.site());
        Map<String, String> nodes = t.nodeProtectors(config.site());
        int c = row.nodes().indexOf(row.controller());
        for (int k = 1; k < row.nodes().size(); k++) {
            String n = row.nodes().get((c + k) % row.nodes().size());
            if (nodes.containsKey(n)) {
                return nodes.get(n);
            }
        }
        return null;
    }

    // ---- the protector's loop: heartbeat, detection, shipping

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
            ship();
        } catch (RuntimeException e) {
            LOG.warn("site {}: protector loop: {}", config.site(), e.toString(), e);
        }
    }

    private void heartbeat() {
        String to;
        synchronized (this) {
            if (detector == null) {
                return;
            }
            to = detector.protector();
        }
        Topology mine = table;
        // a heartbeat may take up to half the timeout on a loaded machine before it counts as lost
        Duration patience = config.heartbeat().compareTo(config.timeout().dividedBy(2)) > 0 ? config.heartbeat() : config.timeout().dividedBy(2);
        try {
            ProtectorCalls.HeartbeatAnswer answer = heartbeats.beat(address(mine.site(to).protector()), config.site(), mine, patience);
            synchronized (this) {
                detector.heartbeatAcked(System.nanoTime());
            }
            if (!answer.newerTable().isEmpty()) {
                adoptAnnounced(Topology.parse(answer.newerTable())); // error masking on demand (or two concurrent changes merged)
            } else if (answer.version() < mine.version()) {
                announce(mine, to);
            }
        } catch (IOException e) {
            LOG.debug("site {}: heartbeat to {} failed: {}", config.site(), to, e.toString());
        }
    }

    private void act(SiteDetector.Action a) {
        if (a instanceof SiteDetector.Action.AskToCheck ask) {
            LOG.warn("site {}: no heartbeat from site {} for {} ms; asking site {} to check it", config.site(), ask.target(),
                    config.timeout().toMillis(), ask.third());
            events.accept(new SiteEvent.Suspected(config.site(), ask.target(), ask.third()));
            work.execute(() -> {
                boolean reached = check(ask.third(), ask.target());
                List<SiteDetector.Action> next;
                synchronized (this) {
                    next = detector == null ? List.of() : detector.verified(ask.target(), ask.third(), reached, System.nanoTime());
                }
                next.forEach(this::act);
            });
        } else if (a instanceof SiteDetector.Action.LinkCut cut) {
            LOG.warn("site {}: site {} still reaches site {}: only the link to it is cut; nothing declared", config.site(), cut.third(),
                    cut.target());
            events.accept(new SiteEvent.LinkCut(config.site(), cut.target(), cut.third()));
        } else if (a instanceof SiteDetector.Action.DeclareFailed d) {
            LOG.error("site {}: site {} declared failed ({})", config.site(), d.target(), d.verifiedBy().isEmpty()
                    ? "a ring of two: nobody else could confirm" : "site " + d.verifiedBy() + " cannot reach it either");
            events.accept(new SiteEvent.Declared(config.site(), d.target(), d.verifiedBy()));
            work.execute(() -> recover(d.target()));
        } else if (a instanceof SiteDetector.Action.StopSelf s) {
            // the node protector running this one may find another node of the site that still reaches a neighbour site
            String reason = handOver.getAsBoolean() ? s.reason() + "; another node of the site reaches a neighbour site and took over"
                    : s.reason();
            LOG.error("site {}: {}; stopping this protector", config.site(), reason);
            events.accept(new SiteEvent.Stopped(config.site(), reason));
            closeQuietly();
        }
    }

    /** Asks {@code third} whether it reaches {@code target}; an unreachable third party counts as "no". */
    private boolean check(String third, String target) {
        Topology t = table;
        try {
            return ProtectorCalls.check(address(t.site(third).protector()), config.secret(), config.encrypt(), config.site(), target, config.timeout());
        } catch (IOException e) {
            LOG.warn("site {}: site {} could not be asked to check site {}: {}", config.site(), third, target, e.toString());
            return false;
        }
    }

    /** Looks for new lines on the protector's own thread as soon as it is free, between two of its ticks. */
    private void shipSoon() {
        if (closed) {
            return;
        }
        try {
            ticker.execute(() -> {
                if (!closed) {
                    ship();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // stopping: nothing more is shipped
        }
    }

    private void ship() {
        LineReplicator r;
        LineReplicator m;
        String held;
        synchronized (this) {
            r = replicator;
            m = mirror;
            held = mirroring.isEmpty() ? "" : mirroring.substring(0, mirroring.indexOf('@'));
        }
        if (r != null) {
            List<Integer> ranks = table.site(config.site()).ranks();
            // another site's rank, in a store the sites share, is not this site's: its own protector ships it
            submitNewest(siteStore, series -> !StoreCatalog.RANK_SERIES.matcher(series).matches() || ranks.contains(StoreCatalog.rankOf(series)),
                    r, submitted, "the site store " + config.siteFolder());
        }
        if (m != null) {
            submitNewest(heldCopies(held), series -> true, m, mirrored, "the held copies of site " + held);
        }
    }

    /** Submits to {@code r} the newest line of each series of {@code store} that {@code ours} accepts and {@code done} lacks. */
    private void submitNewest(Store store, java.util.function.Predicate<String> ours, LineReplicator r, Map<String, Long> done, String what) {
        try {
            StoreCatalog catalog = StoreCatalog.of(store);
            for (String series : catalog.series()) {
                if (!ours.test(series)) {
                    continue;
                }
                List<LineInfo> lines = catalog.lines(series);
                if (lines.isEmpty()) {
                    continue;
                }
                LineInfo newest = lines.get(lines.size() - 1);
                synchronized (this) {
                    if ((r != replicator && r != mirror) || done.getOrDefault(series, 0L) >= newest.sequence()) {
                        continue;
                    }
                    done.put(series, newest.sequence());
                }
                r.submit(newest);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // a line deleted by retention, or a folder not created yet, while it was listed: listed again next heartbeat
            LOG.debug("site {}: {} changed while it was listed ({}); listed again at the next heartbeat", config.site(), what, e.toString());
        } catch (IOException | RuntimeException e) {
            LOG.warn("site {}: cannot list {}: {}", config.site(), what, e.toString());
        }
    }

    // ---- recovery and error masking

    private void recover(String failed) {
        long start = System.nanoTime();
        try {
            Topology plan = table;
            Topology.Move move;
            SiteRecovery.Placed placed;
            for (int tries = 1;; tries++) {
                move = plan.replace(failed);
                try {
                    placed = place(failed, move);
                    break;
                } catch (IOException e) {
                    // nobody watches a spare site: a dead one is found only here. One that does not answer is dropped and
                    // the next spare (or this site) takes the ranks; one that answers gets two more tries
                    if (move.kind() != Topology.Kind.SPARE_SITE) {
                        throw e;
                    }
                    if (tries < 3 && ping(move.target())) {
                        LOG.warn("site {}: placing site {} on spare site {} failed ({}); trying again", config.site(), failed,
                                move.target(), e.toString());
                        continue;
                    }
                    LOG.warn("site {}: the spare site {} cannot take site {}'s ranks ({}): it leaves the table and they go elsewhere",
                            config.site(), move.target(), failed, e.toString());
                    plan = plan.withoutSpare(move.target());
                    tries = 0;
                }
            }
            adoptAnnounced(move.after());
            announceEverywhere(table); // move.after(), or its merge with a change made meanwhile elsewhere
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            LOG.info("site {}: recovered site {} on {} ({}): {} line(s) of {} placed, newest iteration {}; table v{}:\n{}", config.site(),
                    failed, move.target(), move.kind(), placed.lines(), placed.series(), placed.newestIteration(), move.after().version(),
                    move.after().table());
            events.accept(new SiteEvent.Recovered(config.site(), move, placed.series(), placed.lines(), placed.newestIteration(), took));
        } catch (IOException | RuntimeException e) {
            LOG.error("site {}: recovery of site {} failed: {}", config.site(), failed, e.toString(), e);
        }
    }

    /** Places the lines this protector holds for {@code failed} in the store of the site the move sends its ranks to. */
    private SiteRecovery.Placed place(String failed, Topology.Move move) throws IOException {
        if (move.target().equals(config.site())) {
            return SiteRecovery.place(heldCopies(failed), siteStore, move);
        }
        try (Store target = new ProtectorStore(address(move.after().site(move.target()).protector()), config.site(),
                ProtectorStore.Scope.SITE, config.secret(), config.encrypt(), config.timeout())) {
            return SiteRecovery.place(heldCopies(failed), target, move);
        }
    }

    private void adoptAnnounced(Topology heard) {
        Topology next = adopt(heard);
        if (next == null) {
            return;
        }
        events.accept(new SiteEvent.TableChanged(config.site(), next));
        // this site's node protectors keep the newest table too: a controller failover starts from it
        Map<String, String> nodes = next.has(config.site()) ? next.nodeProtectors(config.site()) : Map.of();
        if (!nodes.isEmpty() && !closed) {
            work.execute(() -> nodes.forEach((node, at) -> announce(next, "node " + node, at)));
        }
    }

    /** Gives {@code t} to every other site's protector and to this site's node protectors (Algorithm 4). */
    void announceEverywhere(Topology t) {
        for (Topology.Site s : t.sites()) {
            if (!s.name().equals(config.site())) {
                announce(t, s.name());
            }
        }
        if (t.has(config.site())) {
            t.nodeProtectors(config.site()).forEach((node, at) -> announce(t, "node " + node, at));
        }
    }

    private void announce(Topology t, String to) {
        announce(t, "site " + to, t.site(to).protector());
    }

    private void announce(Topology t, String who, String at) {
        try {
            ProtectorCalls.announce(address(at), config.secret(), config.encrypt(), config.site(), t, config.timeout());
        } catch (IOException e) {
            LOG.info("site {}: the table v{} did not reach {} ({}); it learns it from its next heartbeat", config.site(), t.version(), who,
                    e.toString());
        }
    }

    private Store heldCopies(String site) {
        return held.computeIfAbsent(site, s -> Store.directory(heldFolder(s)));
    }

    // ---- serving other protectors

    private void acceptLoop() {
        ProtectorCalls.acceptLoop(server, () -> closed, connections, this::serve, "site " + config.site());
    }

    /**
     * Serves one connection: its operations one after the other (a site's store operations on a line reuse one
     * connection), until the other end closes it or stays silent for the timeout.
     */
    private void serve(Socket s) {
        try {
            ProtectorCalls.serve(s, config.secret(), config.encrypt(), config.timeout(), () -> closed, this::serveOne);
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.debug("site {}: a connection from {} ended: {}", config.site(), s.getRemoteSocketAddress(), e.toString());
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
            case "PING" -> w.out.writeBoolean(true);
            case "COMMITTED" -> { // a rank of this site committed a line: ship it now, not at the next look at the store
                String series = w.in.readUTF();
                long iteration = w.in.readLong();
                ProtectorCalls.answerHeartbeat(w, table); // and the rank learns a newer table on demand
                LOG.debug("site {}: {} committed {} at iteration {}", config.site(), from, series, iteration);
                shipSoon();
            }
            case "CHECK" -> {
                String target = w.in.readUTF();
                boolean reached = ping(target);
                LOG.info("site {}: site {} asked whether site {} is reachable from here: {}", config.site(), from, target, reached);
                w.out.writeBoolean(true);
                w.out.writeBoolean(reached);
            }
            case "TABLE" -> {
                adoptAnnounced(Topology.parse(w.in.readUTF())); // merged with this protector's (Topology.merge)
                w.out.writeBoolean(true);
            }
            case "GET_TABLE" -> {
                w.out.writeBoolean(true);
                w.out.writeUTF(table.encode());
            }
            default -> {
                Store store = "SITE".equals(scope) ? siteStore : heldCopies(from);
                if (!StoreService.serve(op, store, w)) {
                    StoreService.fail(w, "unknown operation " + op);
                }
            }
        }
    }

    /**
     * Whether {@code site} is alive as seen from here: its cluster protector answers, or else any of its node
     * protectors does (its controller may be failing over to another node, which is not a site failure).
     */
    private boolean ping(String site) {
        Topology t = table;
        if (!t.has(site)) {
            return false;
        }
        // the third party's check decides a declaration: it gets the whole timeout, not one heartbeat; the cluster
        // protector and the node protectors are asked at once (a hung one would hold a sequential check for a timeout)
        List<InetSocketAddress> at = new java.util.ArrayList<>();
        at.add(address(t.site(site).protector()));
        t.nodeProtectors(site).values().forEach(n -> at.add(address(n)));
        return ProtectorCalls.pingAny(at, config.secret(), config.encrypt(), config.site(), config.timeout(), connections);
    }

    private void closeQuietly() {
        closed = true;
        ticker.shutdown();
        heartbeats.close();
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("site {}: closing the server socket: {}", config.site(), e.toString());
        }
        connections.shutdownNow();
    }

    /** Stops the protector: no more heartbeats or answers; copies in flight are left. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closeQuietly();
        work.shutdownNow();
        synchronized (this) {
            if (replicator != null) {
                replicator.close();
            }
            if (mirror != null) {
                mirror.close();
            }
        }
        siteStore.close();
    }

    /** Names the threads of a protector; they are daemons. */
    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
