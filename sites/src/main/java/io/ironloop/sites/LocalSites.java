package io.ironloop.sites;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Every cluster protector of a job started in this JVM on loopback, one per site (the running sites, then the spare
 * sites), each on its own kernel-chosen port: how a supervisor on one machine ({@code ironloop demo sites}) and the
 * tests emulate sites. The table is built from the ranks' places ({@link Topology#of}) with every protector's address.
 * {@link #kill(String)} closes one protector as its site is lost: its socket stops answering, as a killed one would.
 *
 * <p>A running site of two nodes or more also gets RADIC's node level: one {@link NodeProtector} per node, each on its
 * own port, in a heartbeat ring; the controller node's runs the site's cluster protector. {@link #killNode} stops one
 * node's protectors as that node is lost: the controller's makes the site's cluster protector fail over to its next
 * node.
 */
public final class LocalSites implements AutoCloseable {
    private final Topology table;
    private final Map<String, SiteProtector> protectors;
    private final Map<String, Map<String, NodeProtector>> nodes = new LinkedHashMap<>(); // guarded by protectors

    private LocalSites(Topology table, Map<String, SiteProtector> protectors) {
        this.table = table;
        this.protectors = protectors;
    }

    /**
     * Starts one protector per site of the table built from {@code places} and {@code spares}.
     *
     * @param places where every rank runs (its host and site)
     * @param spares the spare sites, in order
     * @param siteFolder a site's store (its ranks' {@code FT_FOLDER}; sites may share one)
     * @param heldRoot where protector {@code S} keeps the site checkpoints it holds: {@code heldRoot/held-S}; after a
     *     failover to node {@code N}, {@code heldRoot/held-S-N}
     * @param secret the job secret every protector proves
     * @param heartbeat {@code SITE_HEARTBEAT}
     * @param timeout {@code SITE_TIMEOUT}
     * @param events receives every protector's events (from the protectors' threads)
     * @return the started protectors
     * @throws IOException when a port cannot be bound
     */
    public static LocalSites start(List<RankPlace> places, List<Site> spares, Function<String, Path> siteFolder, Path heldRoot,
            JobSecret secret, Duration heartbeat, Duration timeout, Consumer<SiteEvent> events) throws IOException {
        return start(places, spares, siteFolder, heldRoot, secret, heartbeat, timeout, false, events);
    }

    /**
     * {@link #start(List, List, Function, Path, JobSecret, Duration, Duration, Consumer)} with every protector's
     * connections encrypted or not ({@code SITE_ENCRYPT}).
     *
     * @throws IOException when a port cannot be bound
     */
    public static LocalSites start(List<RankPlace> places, List<Site> spares, Function<String, Path> siteFolder, Path heldRoot,
            JobSecret secret, Duration heartbeat, Duration timeout, boolean encrypt, Consumer<SiteEvent> events) throws IOException {
        Topology bare = Topology.of(places, spares);
        Map<String, ServerSocket> sockets = new LinkedHashMap<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        Map<String, ServerSocket> nodeSockets = new LinkedHashMap<>();
        Map<String, String> nodeAddresses = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        bare.sites().forEach(s -> names.add(s.name()));
        try {
            for (String s : names) {
                sockets.put(s, bind(addresses, s));
            }
            for (Site s : bare.ring()) {
                if (s.nodes().size() > 1) { // one node is the site itself: no node ring
                    for (String n : s.nodes()) {
                        nodeSockets.put(n, bind(nodeAddresses, n));
                    }
                }
            }
        } catch (IOException e) {
            closeAll(sockets.values());
            closeAll(nodeSockets.values());
            throw e;
        }
        Topology table = bare.withProtectors(addresses).withNodeProtectors(nodeAddresses);
        Map<String, SiteProtector> started = new LinkedHashMap<>();
        LocalSites sites = new LocalSites(table, started);
        try {
            for (String s : names) {
                SiteProtector cluster = SiteProtector.start(new SiteProtector.Config(s, table, siteFolder.apply(s), heldRoot.resolve("held-" + s),
                        secret, heartbeat, timeout, encrypt), sockets.get(s), events);
                synchronized (started) {
                    started.put(s, cluster);
                }
                for (String n : table.nodeProtectors(s).keySet()) {
                    NodeProtector p = NodeProtector.start(new SiteProtector.Config(s, table, siteFolder.apply(s), heldRoot.resolve("held-" + s
                            + "-" + n), secret, heartbeat, timeout, encrypt), n, nodeSockets.get(n),
                            table.site(s).controller().equals(n) ? Optional.of(cluster) : Optional.empty(), events);
                    synchronized (started) {
                        sites.nodes.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(n, p);
                    }
                }
            }
        } catch (RuntimeException e) {
            sites.close();
            closeAll(sockets.values());
            closeAll(nodeSockets.values());
            throw e;
        }
        return sites;
    }

    private static ServerSocket bind(Map<String, String> addresses, String name) throws IOException {
        ServerSocket ss = SiteProtector.listen(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        addresses.put(name, "127.0.0.1:" + ss.getLocalPort());
        return ss;
    }

    /** @return the table every protector started with (version 1) */
    public Topology table() {
        return table;
    }

    /**
     * @param site a site of the table
     * @return its cluster protector, unless it was killed: the one started, or the one a node runs since a failover
     */
    public Optional<SiteProtector> protector(String site) {
        synchronized (protectors) {
            for (NodeProtector n : nodes.getOrDefault(site, Map.of()).values()) {
                if (n.running() && n.cluster().isPresent()) {
                    return n.cluster();
                }
            }
            return Optional.ofNullable(protectors.get(site));
        }
    }

    /**
     * @param site a site of the table
     * @return its node protectors still running, by node, in node order; empty for a site of one node
     */
    public Map<String, NodeProtector> nodeProtectors(String site) {
        synchronized (protectors) {
            Map<String, NodeProtector> running = new LinkedHashMap<>();
            nodes.getOrDefault(site, Map.of()).forEach((n, p) -> {
                if (p.running()) {
                    running.put(n, p);
                }
            });
            return running;
        }
    }

    /**
     * Stops the protectors of one node of a site as that node is lost (nothing is announced): its node protector, and
     * the site's cluster protector when it runs there. Its ring neighbours declare it; when it was the controller node,
     * the next node of the site takes the cluster protector's role.
     *
     * @param site a site of the table
     * @param node one of its nodes with a node protector
     * @return whether its node protector was running
     */
    public boolean killNode(String site, String node) {
        NodeProtector p;
        synchronized (protectors) {
            p = nodes.getOrDefault(site, new LinkedHashMap<>()).remove(node);
        }
        if (p != null) {
            p.close(); // closes the cluster protector it runs
        }
        return p != null;
    }

    /**
     * Stops the protector of {@code site} as its site is lost (nothing is announced to the others).
     *
     * @param site a site of the table
     * @return whether it was running
     */
    public boolean kill(String site) {
        SiteProtector p;
        Map<String, NodeProtector> ofSite;
        synchronized (protectors) {
            p = protectors.remove(site);
            ofSite = nodes.remove(site);
        }
        if (ofSite != null) {
            ofSite.values().forEach(NodeProtector::close); // a live node would answer for the site
        }
        if (p != null) {
            p.close();
        }
        return p != null;
    }

    /** Stops every protector still running. */
    @Override
    public void close() {
        List<SiteProtector> all;
        List<NodeProtector> allNodes = new ArrayList<>();
        synchronized (protectors) {
            all = new ArrayList<>(protectors.values());
            protectors.clear();
            nodes.values().forEach(m -> allNodes.addAll(m.values()));
            nodes.clear();
        }
        allNodes.forEach(NodeProtector::close);
        all.forEach(SiteProtector::close);
    }

    private static void closeAll(Iterable<ServerSocket> sockets) {
        for (ServerSocket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
