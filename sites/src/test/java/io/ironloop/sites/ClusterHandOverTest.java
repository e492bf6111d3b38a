package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster protector cut off from both neighbour sites while its site is not: site X on nodes x1 (controller) and x2,
 * sites Y and Z, on loopback in this JVM. X's cluster protector (on x1) reaches Y and Z, and they reach it, only
 * through {@link EmulatedLink}s, which are cut; x2 reaches them directly, or (a partition of the whole site) through
 * links cut as well; the node protectors reach each other, and Y and Z reach them, directly. Before it stops itself, X's
 * cluster protector asks x2 to take it over, which x2 does only if it reaches a neighbour site.
 */
class ClusterHandOverTest {
    private static final Duration HEARTBEAT = Duration.ofMillis(100);
    private static final Duration TIMEOUT = Duration.ofMillis(1500); // as NodeFailoverTest

    @TempDir
    Path dir;

    private final SiteEventLog events = new SiteEventLog();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<EmulatedLink> links = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /**
     * Starts the four protectors and the two node protectors; x1's view of Y and Z goes through links, and x2's too
     * when {@code x2Cut}. Returns once X has shipped its first line (the rings are up).
     */
    private void start(boolean x2Cut) throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        Topology bare = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "x2", "X"), new RankPlace(2, "y1", "Y"),
                new RankPlace(3, "z1", "Z")), List.of());
        Map<String, ServerSocket> sockets = new LinkedHashMap<>();
        Map<String, String> at = new LinkedHashMap<>();
        for (String name : List.of("X", "Y", "Z", "x1", "x2")) {
            ServerSocket s = SiteProtector.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            open.add(s);
            sockets.put(name, s);
            at.put(name, "127.0.0.1:" + s.getLocalPort());
        }
        Map<String, String> nodes = Map.of("x1", at.get("x1"), "x2", at.get("x2"));
        Map<String, String> sites = Map.of("X", at.get("X"), "Y", at.get("Y"), "Z", at.get("Z"));
        // Y and Z reach X's cluster protector through a link too (cut with the others), its node protectors directly
        EmulatedLink toX = EmulatedLink.start(SiteProtector.address(sites.get("X")), EmulatedLink.Shape.NONE);
        open.add(toX);
        links.add(toX);
        Map<String, String> othersSee = new LinkedHashMap<>(sites);
        othersSee.put("X", toX.hostPort());
        Topology others = bare.withProtectors(othersSee).withNodeProtectors(nodes);
        Topology x1View = viaLinks(bare, sites).withNodeProtectors(nodes);
        Topology x2View = x2Cut ? viaLinks(bare, sites).withNodeProtectors(nodes) : others;
        SiteProtector x = SiteProtector.start(config("X", x1View, "held-X", secret), sockets.get("X"), events::add);
        open.add(x);
        open.add(NodeProtector.start(config("X", x1View, "held-X-x1", secret), "x1", sockets.get("x1"), Optional.of(x), events::add));
        open.add(NodeProtector.start(config("X", x2View, "held-X-x2", secret), "x2", sockets.get("x2"), Optional.empty(), events::add));
        for (String s : List.of("Y", "Z")) {
            open.add(SiteProtector.start(config(s, others, "held-" + s, secret), sockets.get(s), events::add));
        }
        writeLine(1);
        events.await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("X") && s.iteration() == 1, Duration.ofSeconds(20));
        Thread.sleep(5 * HEARTBEAT.toMillis()); // a few node heartbeats: a watcher counts silence from the first it heard
    }

    /** {@code bare} with Y's and Z's protectors reached through links of their own, which {@link #cutAll} cuts. */
    private Topology viaLinks(Topology bare, Map<String, String> sites) throws IOException {
        Map<String, String> view = new LinkedHashMap<>(sites);
        for (String s : List.of("Y", "Z")) {
            EmulatedLink link = EmulatedLink.start(SiteProtector.address(sites.get(s)), EmulatedLink.Shape.NONE);
            open.add(link);
            links.add(link);
            view.put(s, link.hostPort());
        }
        return bare.withProtectors(view);
    }

    private void cutAll() {
        links.forEach(EmulatedLink::cut);
    }

    private SiteProtector.Config config(String site, Topology view, String held, JobSecret secret) {
        return new SiteProtector.Config(site, view, dir.resolve("site-" + site), dir.resolve(held), secret, HEARTBEAT, TIMEOUT);
    }

    private void writeLine(long iteration) {
        try (Store store = Store.directory(dir.resolve("site-X"));
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series("rank-00000").retainLines(10)
                        .build(), store)) {
            engine.protect("state", Scope.GLOBAL, new double[] {iteration});
            engine.checkpoint(iteration);
            engine.awaitDurable();
        }
    }

    @Test
    void controllerCutOffFromBothNeighbourSites_nextNodeReachesThem_takesOver_noSiteDeclared() throws Exception {
        start(false);
        cutAll(); // x1 reaches neither Y nor Z any more; x2 reaches both

        SiteEvent.Stopped stopped = (SiteEvent.Stopped) events.await(e -> e instanceof SiteEvent.Stopped s && s.site().equals("X"),
                Duration.ofSeconds(15));
        assertThat(stopped.reason()).contains("lost both neighbours").contains("took over");
        SiteEvent.FailedOver over = (SiteEvent.FailedOver) events.await(e -> e instanceof SiteEvent.FailedOver, Duration.ofSeconds(10));
        assertThat(over.node()).isEqualTo("x2");
        assertThat(over.failed()).isEqualTo("x1");
        // x1 left the table in the failover: its node protector stops once it hears table v2 from x2
        events.await(e -> e instanceof SiteEvent.NodeStopped n && n.node().equals("x1"), Duration.ofSeconds(10));
        writeLine(2);
        events.await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("X") && s.iteration() == 2, Duration.ofSeconds(20)); // from x2
        assertThat(events.seen()).noneMatch(e -> e instanceof SiteEvent.Declared || e instanceof SiteEvent.NodeDeclared);
    }

    @Test
    void wholeSiteCutOffFromTheOthers_noNodeTakesOver_theClusterProtectorStopsAlone() throws Exception {
        start(true);
        cutAll(); // neither x1 nor x2 reaches Y or Z

        SiteEvent.Stopped stopped = (SiteEvent.Stopped) events.await(e -> e instanceof SiteEvent.Stopped s && s.site().equals("X"),
                Duration.ofSeconds(15));
        assertThat(stopped.reason()).contains("lost both neighbours").doesNotContain("took over");
        events.watch(TIMEOUT.multipliedBy(2)); // x2 was asked and refused: nobody takes the role and stops in turn
        assertThat(events.seen()).noneMatch(e -> e instanceof SiteEvent.FailedOver || e instanceof SiteEvent.NodeStopped
                || e instanceof SiteEvent.NodeDeclared);
    }
}
