package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksRank;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of three rank JVMs of the heat block example on three sites (one rank each, every site its own store and
 * cluster protector), plus a spare site. Every process of site Y is killed (its rank with {@code kill -9}, its
 * protector, its store): the surviving ranks recover inside the job from the partner copies, which the
 * failure-domain-aware placement kept on other sites, and finish bit-identical to a failure-free run; meanwhile the
 * protector of Y (site X) declares Y failed only after site Z confirms, places the site checkpoint of Y it held on
 * the spare site S, and every protector learns the new table.
 */
class SiteLossProcessTest {
    private static final long STEPS = 300;
    private static final Duration HEARTBEAT = Duration.ofMillis(100);
    private static final Duration TIMEOUT = Duration.ofMillis(1000);
    private static final List<String> SITES = List.of("X", "Y", "Z");

    @TempDir
    Path dir;

    private final LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
    private final List<SiteEvent> seen = new ArrayList<>();
    private final Map<String, SiteProtector> protectors = new LinkedHashMap<>();
    private final List<Process> ranks = new ArrayList<>();

    @AfterEach
    void stop() {
        ranks.forEach(Process::destroyForcibly);
        protectors.values().forEach(SiteProtector::close);
    }

    @Test
    void wholeSiteKilled_jobFinishesBitIdentical_siteCheckpointPlacedOnTheSpare_tableEverywhere() throws Exception {
        String reference = BlockReference.run(HeatBlocks.preset("test", STEPS)).digest();
        JobSecret secret = JobSecret.create(dir, "job");
        Topology table = startProtectors(secret);
        List<Integer> ports = freePorts(3);
        String peers = String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList());
        for (int r = 0; r < 3; r++) {
            ranks.add(startRank(r, peers, secret));
        }

        // kill site Y once its protector's protector (X) holds a line of rank 1 past the start
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("Y") && s.series().equals("rank-00001") && s.iteration() >= 20,
                Duration.ofSeconds(60));
        ranks.get(1).destroyForcibly(); // SIGKILL
        protectors.remove("Y").close();
        deleteTree(dir.resolve("site-Y"));

        SiteEvent.Declared declared = (SiteEvent.Declared) await(e -> e instanceof SiteEvent.Declared, Duration.ofSeconds(20));
        assertThat(declared).isEqualTo(new SiteEvent.Declared("X", "Y", "Z"));
        SiteEvent.Recovered recovered = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(30));
        assertThat(recovered.move().target()).isEqualTo("S");
        assertThat(recovered.series()).containsExactly("rank-00001");
        assertThat(recovered.newestIteration()).isGreaterThanOrEqualTo(20);
        try (Store s = Store.directory(dir.resolve("site-S"))) {
            assertThat(StoreCatalog.of(s).verifyStore().problems()).isEmpty();
            assertThat(StoreCatalog.of(s).lines("rank-00001")).isNotEmpty();
        }

        for (int r : List.of(0, 2)) {
            assertThat(ranks.get(r).waitFor(120, TimeUnit.SECONDS)).as("rank %d finished", r).isTrue();
            assertThat(ranks.get(r).exitValue()).as("rank %d exit; stderr:%n%s", r, read("rank-" + r + ".err")).isZero();
        }
        String out = read("rank-0.out");
        assertThat(out).as("rank 0's stderr:%n%s", read("rank-0.err")).contains("result sha256=" + reference);
        assertThat(read("rank-0.err")).contains("1 online recoveries");

        for (String s : List.of("X", "Z", "S")) {
            Topology t = SiteProtector.fetchTable(protectors.get(s).address(), secret, TIMEOUT);
            assertThat(t.version()).as("table at %s", s).isEqualTo(table.version() + 1);
            assertThat(t.siteOf(1)).isEqualTo("S");
        }
        assertThat(seen).noneMatch(e -> e instanceof SiteEvent.Declared d && !d.target().equals("Y"));
    }

    private Topology startProtectors(JobSecret secret) throws IOException {
        Map<String, ServerSocket> sockets = new LinkedHashMap<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        for (String s : List.of("X", "Y", "Z", "S")) {
            ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            sockets.put(s, ss);
            addresses.put(s, "127.0.0.1:" + ss.getLocalPort());
        }
        List<RankPlace> places = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            places.add(new RankPlace(r, "node-" + SITES.get(r), SITES.get(r)));
        }
        Topology table = Topology.of(places, List.of(Site.spare("S", List.of("node-S"), ""))).withProtectors(addresses);
        for (String s : sockets.keySet()) {
            protectors.put(s, SiteProtector.start(new SiteProtector.Config(s, table, dir.resolve("site-" + s), dir.resolve("held-" + s),
                    secret, HEARTBEAT, TIMEOUT), sockets.get(s), events::add));
        }
        return table;
    }

    private Process startRank(int rank, String peers, JobSecret secret) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:+UseSerialGC", "-Dironloop.rank=" + rank, "-Dironloop.job=sites-test", "-cp", System.getProperty("java.class.path"),
                HeatBlocksRank.class.getName(), "test", "--steps", String.valueOf(STEPS), "--pace-ms", "15");
        Map<String, String> env = pb.environment();
        env.put("IRONLOOP_RANK", String.valueOf(rank));
        env.put("IRONLOOP_SIZE", "3");
        env.put("IRONLOOP_JOB", "sites-test");
        env.put("IRONLOOP_PEERS", peers);
        env.put("IRONLOOP_SECRET_FILE", secret.file().toString());
        env.put("IRONLOOP_HOST", SITES.get(rank)); // the failure domain is the site: partner copies go to another site
        env.put("IRONLOOP_SITE", SITES.get(rank));
        env.put("IRONLOOP_FT_FOLDER", dir.resolve("site-" + SITES.get(rank)).toString());
        env.put("IRONLOOP_SNAPSHOT_EVERY", "5");
        env.put("IRONLOOP_DISK_EVERY", "1");
        pb.redirectOutput(dir.resolve("rank-" + rank + ".out").toFile());
        pb.redirectError(dir.resolve("rank-" + rank + ".err").toFile());
        return pb.start();
    }

    private SiteEvent await(Predicate<SiteEvent> what, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            SiteEvent e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                break;
            }
            seen.add(e);
            if (what.test(e)) {
                return e;
            }
        }
        throw new AssertionError("no such event within " + within + "; saw " + seen + "\nrank 0 stderr:\n" + read("rank-0.err"));
    }

    private String read(String name) {
        try {
            return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    private static List<Integer> freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return held.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        assertThat(new File(root.toString())).doesNotExist();
    }
}
