package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.sites.Topology.RankPlace;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rank's {@link SiteDirectory} against real protectors on loopback in this JVM (real files, the job secret): built from
 * the environment the launcher gives a rank; a notice of a committed line makes the protector ship it at once; after
 * the site's controller node is lost and its cluster protector fails over to the next node, the directory tries the old
 * address, learns the new one from the site's other node protector and delivers the notice there.
 */
class SiteDirectoryTest {
    @TempDir
    Path dir;

    /** Every event with the time it arrived. */
    private record Seen(SiteEvent event, long nanos) {
    }

    private final LinkedBlockingQueue<Seen> events = new LinkedBlockingQueue<>();
    private final List<Seen> seen = new ArrayList<>();
    private LocalSites sites;

    @AfterEach
    void stop() {
        if (sites != null) {
            sites.close();
        }
    }

    /** Site X (nodes {@code xNodes}, ranks 0…), Y (y1) and Z (z1), one rank per node. */
    private SiteDirectory start(List<String> xNodes, Duration heartbeat, Duration timeout) throws IOException {
        return start(xNodes, List.of(), heartbeat, timeout);
    }

    /** As above, with spare sites. */
    private SiteDirectory start(List<String> xNodes, List<Topology.Site> spares, Duration heartbeat, Duration timeout) throws IOException {
        List<RankPlace> places = new ArrayList<>();
        xNodes.forEach(n -> places.add(new RankPlace(places.size(), n, "X")));
        places.add(new RankPlace(places.size(), "y1", "Y"));
        places.add(new RankPlace(places.size(), "z1", "Z"));
        JobSecret secret = JobSecret.create(dir, "job");
        sites = LocalSites.start(places, spares, s -> dir.resolve("site-" + s), dir, secret, heartbeat, timeout,
                e -> events.add(new Seen(e, System.nanoTime())));
        // rank 0 as ironloop run starts it: IRONLOOP_SITE, IRONLOOP_RANK and the protectors' addresses
        Map<String, String> env = new HashMap<>(SiteDirectory.environment(sites.table()));
        env.put(LaunchEnvironment.SITE, "X");
        env.put(LaunchEnvironment.RANK, "0");
        return SiteDirectory.fromEnvironment(env, secret, false, timeout).orElseThrow();
    }

    private Seen await(Predicate<SiteEvent> what, Duration within) throws InterruptedException {
        for (Seen s : seen) {
            if (what.test(s.event())) {
                return s;
            }
        }
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Seen s = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (s != null) {
                seen.add(s);
                if (what.test(s.event())) {
                    return s;
                }
            }
        }
        throw new AssertionError("no such event within " + within + "; saw " + seen);
    }

    private static Predicate<SiteEvent> shipped(String site, String series, long iteration) {
        return e -> e instanceof SiteEvent.Shipped s && s.site().equals(site) && s.series().equals(series) && s.iteration() == iteration;
    }

    @Test
    void committed_protectorShipsTheLineAtOnce_notAtItsNextLookAtTheStore() throws Exception {
        Duration heartbeat = Duration.ofSeconds(20); // the protector's first look at the store comes after the test
        SiteDirectory directory = start(List.of("x1"), heartbeat, heartbeat.multipliedBy(2).plusSeconds(1));
        long started = System.nanoTime();
        assertThat(directory.site()).isEqualTo("X");
        assertThat(directory.protectorOf("X")).isEqualTo(sites.table().site("X").protector());

        NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", 1, 1);
        assertThat(directory.committed("rank-00000", 1)).isEmpty(); // nothing moved
        Seen line = await(shipped("X", "rank-00000", 1), Duration.ofSeconds(15));
        assertThat(Duration.ofNanos(line.nanos() - started)).as("shipped on the notice, before the protector looked").isLessThan(heartbeat);

        // the protector gone and no table naming another one anywhere: the notice fails with the first error
        sites.kill("X");
        assertThatThrownBy(() -> directory.committed("rank-00000", 2)).isInstanceOf(IOException.class);
        assertThat(directory.version()).isEqualTo(1);
    }

    @Test
    void clusterProtectorFailedOver_directoryTriesTheOldAddress_learnsTheNewOneFromTheSitesNodeProtector() throws Exception {
        Duration heartbeat = Duration.ofMillis(100);
        SiteDirectory directory = start(List.of("x1", "x2"), heartbeat, Duration.ofMillis(1500));
        String old = directory.protectorOf("X");
        String x2 = sites.table().nodeProtectors("X").get("x2");
        NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", 1, 1);
        assertThat(directory.committed("rank-00000", 1)).isEmpty();
        await(shipped("X", "rank-00000", 1), Duration.ofSeconds(20));
        assertThat(directory.version()).isEqualTo(1);

        Thread.sleep(5 * heartbeat.toMillis()); // a few node heartbeats: a watcher counts silence from the first it heard
        sites.killNode("X", "x1"); // the controller node: its node protector and X's cluster protector
        SiteEvent.FailedOver over = (SiteEvent.FailedOver) await(e -> e instanceof SiteEvent.FailedOver, Duration.ofSeconds(15)).event();
        assertThat(over.address()).isNotEqualTo(old);

        NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", 2, 2);
        Optional<SiteDirectory.Moved> moved = directory.committed("rank-00000", 2);
        assertThat(moved).as("the old address failed, the new one was learnt").contains(new SiteDirectory.Moved("X", old, over.address(), 2, x2));
        assertThat(directory.protectorOf("X")).isEqualTo(over.address());
        assertThat(directory.version()).isEqualTo(2);
        await(shipped("X", "rank-00000", 2), Duration.ofSeconds(15)); // by the cluster protector x2 runs now

        NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", 3, 3);
        assertThat(directory.committed("rank-00000", 3)).as("reached at once at the new address").isEmpty();
    }

    @Test
    void ranksSiteDeclaredFailedAndPlacedOnTheSpare_directoryFollowsTheRankToTheSparesProtector() throws Exception {
        SiteDirectory directory = start(List.of("x1"), List.of(Topology.Site.spare("S", List.of("s1"), "")), Duration.ofMillis(100),
                Duration.ofMillis(1500));
        String old = directory.protectorOf("X");
        NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", 1, 1);
        directory.committed("rank-00000", 1);
        await(shipped("X", "rank-00000", 1), Duration.ofSeconds(20)); // to Z, which protects X

        sites.kill("X"); // X's protector: Z declares X (Y confirms) and places its ranks on the spare S
        await(e -> e instanceof SiteEvent.Recovered r && r.move().failed().equals("X"), Duration.ofSeconds(20));

        NodeFailoverTest.writeLines(dir.resolve("site-S"), "rank-00000", 2, 2); // where the table says rank 0 runs now
        SiteDirectory.Moved moved = directory.committed("rank-00000", 2).orElseThrow();
        assertThat(moved.site()).isEqualTo("S");
        assertThat(moved.from()).isEqualTo(old);
        assertThat(moved.to()).isEqualTo(sites.table().site("S").protector());
        assertThat(moved.tableVersion()).isEqualTo(2);
        assertThat(directory.site()).isEqualTo("S");
        await(shipped("S", "rank-00000", 2), Duration.ofSeconds(15)); // S, in X's place in the ring, ships rank 0's lines
    }

    /**
     * Commit → shipped with the protectors' default heartbeat, lines committed alternately with and without a notice: the
     * time from the line durable to its copy done, and the part of it before the copy started (that time less the copy's
     * own, {@link SiteEvent.Shipped#took}), which the notice shortens. Figures to re-measure on a quiet machine
     * (docs/sites.md, "Measured"), printed, not asserted.
     */
    @Test
    void commitToShipped_withAndWithoutTheNotice_measured() throws Exception {
        Duration heartbeat = Duration.ofMillis(200); // SITE_HEARTBEAT's default
        SiteDirectory directory = start(List.of("x1"), heartbeat, Duration.ofSeconds(2));
        Map<Boolean, List<Long>> total = new HashMap<>(Map.of(false, new ArrayList<>(), true, new ArrayList<>()));
        Map<Boolean, List<Long>> waited = new HashMap<>(Map.of(false, new ArrayList<>(), true, new ArrayList<>()));
        for (int it = 1; it <= 14; it++) {
            NodeFailoverTest.writeLines(dir.resolve("site-X"), "rank-00000", it, it);
            long durable = System.nanoTime();
            boolean told = it % 2 == 0;
            if (told) {
                directory.committed("rank-00000", it);
            }
            Seen s = await(shipped("X", "rank-00000", it), Duration.ofSeconds(15));
            long ms = TimeUnit.NANOSECONDS.toMillis(s.nanos() - durable);
            if (it > 2) { // the first two warm up
                total.get(told).add(ms);
                waited.get(told).add(ms - ((SiteEvent.Shipped) s.event()).took().toMillis());
            }
        }
        System.out.printf("SiteDirectoryTest: commit -> shipped (SITE_HEARTBEAT %d ms), median of %d lines each: %d ms without a notice"
                + " (%d ms of it before the copy started), %d ms with the notice (%d ms before the copy); before the copy: %s and %s%n",
                heartbeat.toMillis(), total.get(true).size(), median(total.get(false)), median(waited.get(false)), median(total.get(true)),
                median(waited.get(true)), waited.get(false), waited.get(true));
        assertThat(total.get(false)).hasSize(6);
        assertThat(total.get(true)).hasSize(6);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
