package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Four protectors (sites X, Y, Z and a spare S) on loopback sockets in this JVM, with real files and the job secret. */
class SiteProtectorTest {
    private static final Duration HEARTBEAT = Duration.ofMillis(100);
    private static final Duration TIMEOUT = Duration.ofMillis(1500); // shorter ones risk a false declaration at load 30+

    @TempDir
    Path dir;

    private final LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
    private LocalSites sites;

    @AfterEach
    void stop() {
        if (sites != null) {
            sites.close();
        }
    }

    private Topology startAll(JobSecret secret) throws IOException {
        return startAll(secret, false);
    }

    private Topology startAll(JobSecret secret, boolean encrypt) throws IOException {
        sites = LocalSites.start(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "y1", "Y"), new RankPlace(2, "z1", "Z")),
                List.of(Site.spare("S", List.of("s1"), "")), s -> dir.resolve("site-" + s), dir, secret, HEARTBEAT, TIMEOUT, encrypt, events::add);
        return sites.table();
    }

    private SiteEvent await(Predicate<SiteEvent> what, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        List<SiteEvent> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            SiteEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null && what.test(e)) {
                return e;
            }
            if (e != null) {
                seen.add(e);
            }
        }
        throw new AssertionError("no such event within " + within + "; saw " + seen);
    }

    /** Writes lines at iterations 1..n of {@code state} for rank-00001 in {@code folder}. */
    private static double[] writeLines(Path folder, int n) {
        return writeLines(folder, "rank-00001", n);
    }

    /** Writes lines at iterations 1..n of {@code state} for {@code series} in {@code folder}. */
    private static double[] writeLines(Path folder, String series, int n) {
        double[] state = new double[50_000];
        try (Store store = Store.directory(folder);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series(series).retainLines(10)
                        .build(), store)) {
            engine.protect("state", Scope.GLOBAL, state);
            Random rnd = new Random(11);
            for (int it = 1; it <= n; it++) {
                for (int k = 0; k < state.length; k++) {
                    state[k] = rnd.nextDouble() + it;
                }
                engine.checkpoint(it);
                engine.awaitDurable();
            }
        }
        return state.clone();
    }

    /** In the clear, and with every connection encrypted ({@code SITE_ENCRYPT}): the same protocol, the same outcome. */
    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {false, true})
    void siteLost_protectorDeclaresAfterThirdConfirms_placesItsLinesOnTheSpare_everyoneLearnsTheTable(boolean encrypt) throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        Topology table = startAll(secret, encrypt);
        assertThat(table.protectorOf("Y").name()).isEqualTo("X");

        writeLines(dir.resolve("site-Y"), "rank-00002", 1); // another site's rank in Y's store (a store the sites share): not Y's to ship
        double[] written = writeLines(dir.resolve("site-Y"), 3);
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("Y") && s.iteration() == 3, Duration.ofSeconds(20));
        assertThat(dir.resolve("held-X").resolve("Y").resolve("rank-00001")).isDirectory();
        assertThat(dir.resolve("held-X").resolve("Y").resolve("rank-00002")).doesNotExist();
        Thread.sleep(3 * HEARTBEAT.toMillis()); // the ring runs clean meanwhile
        assertThat(events).noneMatch(e -> e instanceof SiteEvent.Suspected || e instanceof SiteEvent.Declared);

        sites.kill("Y"); // the site is gone: its protector, and with it its store
        SiteEvent.Declared declared = (SiteEvent.Declared) await(e -> e instanceof SiteEvent.Declared, Duration.ofSeconds(10));
        assertThat(declared.site()).isEqualTo("X");
        assertThat(declared.target()).isEqualTo("Y");
        assertThat(declared.verifiedBy()).isEqualTo("Z");
        SiteEvent.Recovered recovered = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(20));
        assertThat(recovered.move().kind()).isEqualTo(Topology.Kind.SPARE_SITE);
        assertThat(recovered.move().target()).isEqualTo("S");
        assertThat(recovered.series()).containsExactly("rank-00001");
        assertThat(recovered.newestIteration()).isEqualTo(3);

        // the spare's store now restores the lost rank's newest line, bit for bit
        double[] restored = new double[written.length];
        try (Store store = Store.directory(dir.resolve("site-S"));
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series("rank-00001").build(), store)) {
            engine.protect("state", Scope.GLOBAL, restored);
            assertThat(engine.restore().orElseThrow().iteration()).isEqualTo(3);
        }
        assertThat(restored).isEqualTo(written);

        // Algorithm 4: every protector, and anyone asking, sees S where Y was
        for (String s : List.of("X", "Z", "S")) {
            Topology t = SiteProtector.fetchTable(sites.protector(s).orElseThrow().address(), secret, encrypt, TIMEOUT);
            assertThat(t.version()).as("table at %s", s).isEqualTo(2);
            assertThat(t.siteOf(1)).isEqualTo("S");
            assertThat(t.protectorOf("S").name()).isEqualTo("X");
        }
        // and S's protector now protects Z's lines in turn, and ships its own (rank 1's) to X
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("S"), Duration.ofSeconds(20));
        // asking with the other SITE_ENCRYPT is refused, saying so
        assertThatThrownBy(() -> SiteProtector.fetchTable(sites.protector("X").orElseThrow().address(), secret, !encrypt, TIMEOUT))
                .isInstanceOf(IOException.class).hasMessageContaining("give every protector of the job the same SITE_ENCRYPT");
    }

    @Test
    void threeSitesLostOneAfterTheOther_spareThenProtectorSiteThenExposed_linesFollowEveryMove() throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        startAll(secret);
        writeLines(dir.resolve("site-Y"), 2);
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("Y") && s.iteration() == 2, Duration.ofSeconds(20));

        sites.kill("Y"); // Fig. 3: Y's ranks go to the spare S, which takes Y's row
        SiteEvent.Recovered first = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(20));
        assertThat(first.move().kind()).isEqualTo(Topology.Kind.SPARE_SITE);
        // S ships rank 1's lines, now in its store, to its protector X; Z's protector is now S
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("S") && s.series().equals("rank-00001"), Duration.ofSeconds(20));

        sites.kill("Z"); // Fig. 4: no spare left, Z's protector S takes its ranks
        SiteEvent.Recovered second = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(20));
        assertThat(second.site()).isEqualTo("S");
        assertThat(second.move().kind()).isEqualTo(Topology.Kind.PROTECTOR_SITE);
        assertThat(second.move().after().ring()).extracting(Site::name).containsExactly("X", "S");
        assertThat(second.move().after().site("S").ranks()).containsExactly(1, 2);

        sites.kill("X"); // Fig. 5: a ring of two loses one; nobody can confirm, S runs on alone
        SiteEvent.Declared unverified = (SiteEvent.Declared) await(e -> e instanceof SiteEvent.Declared d && d.target().equals("X"),
                Duration.ofSeconds(20));
        assertThat(unverified.verifiedBy()).isEmpty();
        SiteEvent.Recovered third = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(20));
        assertThat(third.move().kind()).isEqualTo(Topology.Kind.EXPOSED);
        assertThat(third.move().after().siteOf(0)).isEqualTo("S");
        // rank 1's lines followed it: Y's store → held at X → S's store, still restorable
        try (Store store = Store.directory(dir.resolve("site-S"))) {
            assertThat(io.ironloop.core.StoreCatalog.of(store).lines("rank-00001")).isNotEmpty();
            assertThat(io.ironloop.core.StoreCatalog.of(store).verifyStore().problems()).isEmpty();
        }
    }

    @Test
    void fetchTable_wrongSecret_refused() throws Exception {
        startAll(JobSecret.create(dir, "job"));
        JobSecret other = JobSecret.create(dir, "other");
        InetSocketAddress x = sites.protector("X").orElseThrow().address();
        assertThatThrownBy(() -> SiteProtector.fetchTable(x, other, TIMEOUT)).isInstanceOf(IOException.class)
                .hasMessageContaining("secret");
    }

    /**
     * A failover of X and a recovery of Y, both table v2 of the same v1, announced to Z's protector in either order: it
     * ends on the same table, v3 with both changes (before, it kept the first it heard and dropped the other).
     */
    @ParameterizedTest
    @ValueSource(strings = {"failover first", "recovery first"})
    void concurrentTableChanges_announcedInEitherOrder_theProtectorHoldsTheirMerge(String order) throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        java.net.ServerSocket zs = SiteProtector.listen(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        Topology v1 = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "x2", "X"), new RankPlace(2, "y1", "Y"),
                new RankPlace(3, "z1", "Z")), List.of(Site.spare("S", List.of("s1"), ""))).withProtectors(java.util.Map.of("X",
                "127.0.0.1:1", "Y", "127.0.0.1:1", "Z", "127.0.0.1:" + zs.getLocalPort(), "S", "127.0.0.1:1"));
        Topology failover = v1.failover("X", "x2", "127.0.0.1:2");
        Topology recovery = v1.replace("Y").after();
        List<Topology> announced = order.equals("failover first") ? List.of(failover, recovery) : List.of(recovery, failover);
        // Z alone, its heartbeats a minute apart: nothing but the announcements changes its table
        try (SiteProtector z = SiteProtector.start(new SiteProtector.Config("Z", v1, dir.resolve("site-Z"), dir.resolve("held-Z"), secret,
                Duration.ofSeconds(60), Duration.ofSeconds(600)), zs, events::add)) {
            for (Topology t : announced) {
                ProtectorCalls.announce(z.address(), secret, false, "test", t, Duration.ofSeconds(10));
            }
            Topology held = SiteProtector.fetchTable(z.address(), secret, Duration.ofSeconds(10));
            assertThat(held.version()).isEqualTo(3);
            assertThat(held).isEqualTo(failover.merge(recovery));
            assertThat(held.site("X").protector()).isEqualTo("127.0.0.1:2");
            assertThat(held.site("S").ranks()).containsExactly(2);
        }
    }

    /**
     * Two protectors that each heard one of two concurrent changes (X the failover of Z, Y the recovery of W, both v2)
     * and nothing more: Y's heartbeats to X carry its table's digest, X answers its own table of the same version, and
     * both end on their merge, v3.
     */
    @Test
    void concurrentTableChanges_eachHeardByOneProtector_theirHeartbeatsMergeThem() throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        java.net.ServerSocket xs = SiteProtector.listen(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        java.net.ServerSocket ys = SiteProtector.listen(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        Topology v1 = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "y1", "Y"), new RankPlace(2, "z1", "Z"),
                new RankPlace(3, "z2", "Z"), new RankPlace(4, "w1", "W")), List.of(Site.spare("S", List.of("s1"), ""))).withProtectors(
                java.util.Map.of("X", "127.0.0.1:" + xs.getLocalPort(), "Y", "127.0.0.1:" + ys.getLocalPort(), "Z", "127.0.0.1:1", "W",
                        "127.0.0.1:1", "S", "127.0.0.1:1"));
        Topology failover = v1.failover("Z", "z2", "127.0.0.1:2");
        Topology recovery = v1.replace("W").after();
        Topology merged = failover.merge(recovery);
        // heartbeats every 100 ms, a timeout far away: nothing is suspected while they talk
        try (SiteProtector x = SiteProtector.start(new SiteProtector.Config("X", v1, dir.resolve("site-X"), dir.resolve("held-X"), secret,
                HEARTBEAT, Duration.ofSeconds(600)), xs, events::add);
                SiteProtector y = SiteProtector.start(new SiteProtector.Config("Y", v1, dir.resolve("site-Y"), dir.resolve("held-Y"), secret,
                        HEARTBEAT, Duration.ofSeconds(600)), ys, events::add)) {
            ProtectorCalls.announce(x.address(), secret, false, "test", failover, Duration.ofSeconds(10));
            ProtectorCalls.announce(y.address(), secret, false, "test", recovery, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Topology atX = null;
            Topology atY = null;
            while (System.nanoTime() < deadline) {
                atX = SiteProtector.fetchTable(x.address(), secret, Duration.ofSeconds(10));
                atY = SiteProtector.fetchTable(y.address(), secret, Duration.ofSeconds(10));
                if (atX.equals(merged) && atY.equals(merged)) {
                    break;
                }
                Thread.sleep(50);
            }
            assertThat(atX).as("X's table").isEqualTo(merged);
            assertThat(atY).as("Y's table").isEqualTo(merged);
            assertThat(merged.version()).isEqualTo(3);
        }
    }
}
