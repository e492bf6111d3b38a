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
    private static final long STEPS = 200;
    private static final Duration HEARTBEAT = Duration.ofMillis(200);
    /** The default SITE_TIMEOUT: a shorter one declared a live site failed at load 30 (every protector here is in one JVM). */
    private static final Duration TIMEOUT = Duration.ofMillis(2000);
    private static final List<String> SITES = List.of("X", "Y", "Z");

    @TempDir
    Path dir;

    private final LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
    private final List<SiteEvent> seen = new ArrayList<>();
    private LocalSites sites;
    private final List<Process> ranks = new ArrayList<>();

    @AfterEach
    void stop() {
        ranks.forEach(Process::destroyForcibly);
        if (sites != null) {
            sites.close();
        }
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
        sites.kill("Y");
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
            Topology t = SiteProtector.fetchTable(sites.protector(s).orElseThrow().address(), secret, TIMEOUT);
            assertThat(t.version()).as("table at %s", s).isEqualTo(table.version() + 1);
            assertThat(t.siteOf(1)).isEqualTo("S");
        }
        assertThat(seen).noneMatch(e -> e instanceof SiteEvent.Declared d && !d.target().equals("Y"));
    }

    /**
     * The relaunch path: the whole job is stopped when site Y is lost (every rank JVM killed at once, Y's protector and
     * Y's lines in the store the sites share deleted), so nothing of rank 1 is left but the site checkpoint that X holds.
     * X declares Y (Z confirms) and places those lines on the spare S; the job relaunched (rank 1 now on S) resumes from
     * the newest line every rank holds — one of the placed lines — and finishes bit-identical.
     */
    @Test
    void wholeJobStoppedWithSiteLost_relaunchedFromTheSiteCheckpointOnTheSpare_bitIdentical() throws Exception {
        String reference = BlockReference.run(HeatBlocks.preset("test", STEPS)).digest();
        JobSecret secret = JobSecret.create(dir, "job");
        startProtectors(secret, true);
        String peers = String.join(",", freePorts(3).stream().map(p -> "127.0.0.1:" + p).toList());
        for (int r = 0; r < 3; r++) {
            ranks.add(startRank(r, peers, secret, dir.resolve("ft"), ""));
        }
        await(e -> e instanceof SiteEvent.Shipped s && s.site().equals("Y") && s.series().equals("rank-00001") && s.iteration() >= 20,
                Duration.ofSeconds(60));
        ranks.forEach(Process::destroyForcibly); // the job stops at once
        for (Process p : ranks) {
            p.waitFor(30, TimeUnit.SECONDS);
        }
        sites.kill("Y");
        deleteTree(dir.resolve("ft").resolve("rank-00001")); // site Y's storage is gone with it

        SiteEvent.Recovered recovered = (SiteEvent.Recovered) await(e -> e instanceof SiteEvent.Recovered, Duration.ofSeconds(30));
        assertThat(seen).contains(new SiteEvent.Declared("X", "Y", "Z"));
        assertThat(recovered.move().target()).isEqualTo("S");
        assertThat(recovered.series()).containsExactly("rank-00001");

        // the supervisor's part: relaunch every rank where the table says; rank 1 runs on S now (its store is the shared one)
        Topology now = SiteProtector.fetchTable(sites.protector("Z").orElseThrow().address(), secret, TIMEOUT);
        assertThat(now.siteOf(1)).isEqualTo("S");
        ranks.clear();
        String again = String.join(",", freePorts(3).stream().map(p -> "127.0.0.1:" + p).toList());
        for (int r = 0; r < 3; r++) {
            ranks.add(startRank(r, again, secret, dir.resolve("ft"), "-relaunch"));
        }
        for (int r = 0; r < 3; r++) {
            assertThat(ranks.get(r).waitFor(120, TimeUnit.SECONDS)).as("relaunched rank %d finished", r).isTrue();
            assertThat(ranks.get(r).exitValue()).as("relaunched rank %d; stderr:%n%s", r, read("rank-" + r + "-relaunch.err")).isZero();
        }
        String err = read("rank-0-relaunch.err");
        java.util.regex.Matcher resumed = java.util.regex.Pattern.compile("resumed at step (\\d+)").matcher(err);
        assertThat(resumed.find()).as("rank 0's stderr:%n%s", err).isTrue();
        long step = Long.parseLong(resumed.group(1));
        assertThat(step).isPositive().isLessThanOrEqualTo(recovered.newestIteration() + 1);
        assertThat(read("rank-0-relaunch.out")).contains("result sha256=" + reference);
    }

    private Topology startProtectors(JobSecret secret) throws IOException {
        return startProtectors(secret, false);
    }

    /** Starts the four protectors; with {@code shared}, every site's store is the one folder {@code ft}. */
    private Topology startProtectors(JobSecret secret, boolean shared) throws IOException {
        List<RankPlace> places = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            places.add(new RankPlace(r, "node-" + SITES.get(r), SITES.get(r)));
        }
        sites = LocalSites.start(places, List.of(Site.spare("S", List.of("node-S"), "")), s -> siteStore(s, shared), dir, secret,
                HEARTBEAT, TIMEOUT, events::add);
        return sites.table();
    }

    private Path siteStore(String site, boolean shared) {
        return shared ? dir.resolve("ft") : dir.resolve("site-" + site);
    }

    private Process startRank(int rank, String peers, JobSecret secret) throws IOException {
        return startRank(rank, peers, secret, siteStore(SITES.get(rank), false), "");
    }

    private Process startRank(int rank, String peers, JobSecret secret, Path store, String attempt) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:+UseSerialGC", "-Dironloop.rank=" + rank, "-Dironloop.job=sites-test", "-cp", System.getProperty("java.class.path"),
                HeatBlocksRank.class.getName(), "test", "--steps", String.valueOf(STEPS), "--pace-ms", "10");
        Map<String, String> env = pb.environment();
        env.put("IRONLOOP_RANK", String.valueOf(rank));
        env.put("IRONLOOP_SIZE", "3");
        env.put("IRONLOOP_JOB", "sites-test");
        env.put("IRONLOOP_PEERS", peers);
        env.put("IRONLOOP_SECRET_FILE", secret.file().toString());
        env.put("IRONLOOP_HOST", SITES.get(rank)); // the failure domain is the site: partner copies go to another site
        env.put("IRONLOOP_SITE", SITES.get(rank));
        env.put("IRONLOOP_FT_FOLDER", store.toString());
        env.put("IRONLOOP_RETAIN_LINES", "20"); // the survivors still hold the iteration of the site checkpoint at a relaunch
        env.put("IRONLOOP_SNAPSHOT_EVERY", "5");
        env.put("IRONLOOP_DISK_EVERY", "1");
        pb.redirectOutput(dir.resolve("rank-" + rank + attempt + ".out").toFile());
        pb.redirectError(dir.resolve("rank-" + rank + attempt + ".err").toFile());
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
