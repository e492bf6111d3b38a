package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.Scope;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three protector JVMs, each in the network namespace of its site, on a bridge: cutting one inter-site link declares
 * nothing (the third site still reaches the silent one); cutting a site off from all others makes its protector stop
 * itself and its protector declare it, confirmed by the third; with random loss on every link (iptables' statistic
 * match) and a delay on every connection (a relay in each namespace), lines still replicate intact, nothing is
 * declared, and a site killed is declared, confirmed by the third.
 * Skipped where namespaces cannot be created (and the loss test where {@code iptables} is missing).
 */
class SiteNetnsTest {
    private static final List<String> SITES = List.of("X", "Y", "Z");
    private static final long HEARTBEAT_MS = 100;
    private static final long TIMEOUT_MS = 1500; // shorter ones risk a false declaration at load 30+
    private static final double LOSS = 0.03;
    private static final long DELAY_MS = 10; // each way, on every connection to a site
    private static final int PORT = 7700;
    private static final String SERIES = "rank-00001"; // site Y's rank
    private static final int LINES = 3;
    private static final int LINE_DOUBLES = 1 << 19; // 4 MiB a line

    @TempDir
    Path dir;

    private ProtectorOutput output() {
        return new ProtectorOutput(dir);
    }

    @Test
    void oneLinkCut_nothingDeclared_thenSitePartitioned_itStopsItselfAndIsDeclared() throws Exception {
        String why = Netns.unavailableReason();
        assumeTrue(why == null, "skipped: " + why);
        JobSecret secret = JobSecret.create(dir, "job");
        Path tableFile = tableFile();
        Map<String, Process> protectors = new LinkedHashMap<>();
        try (Netns net = new Netns()) {
            net.hub();
            for (int i = 0; i < SITES.size(); i++) {
                net.site(SITES.get(i), i + 1);
            }
            startProtectors(net, tableFile, secret, protectors);
            Thread.sleep(2 * TIMEOUT_MS); // every protector has heard its neighbour by now (or suspected it, which fails below)

            net.cut("X", 1, "Y", 2, true); // Y's heartbeats no longer reach X; Z still reaches Y
            output().waitFor("X", "event LinkCut site=X target=Y third=Z", 20_000);
            Thread.sleep(2 * TIMEOUT_MS);
            for (String s : SITES) {
                assertThat(output().out(s)).as("site %s's events", s).doesNotContain("Declared").doesNotContain("Stopped");
            }
            net.cut("X", 1, "Y", 2, false);

            net.partition("Y"); // Y cut off from both neighbours
            output().waitFor("X", "event Declared site=X target=Y verified_by=Z", 20_000);
            output().waitFor("Y", "event Stopped site=Y", 20_000);
            assertThat(protectors.get("Y").waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(protectors.get("Y").exitValue()).isEqualTo(3);
            output().waitFor("Z", "event TableChanged site=Z", 20_000); // the table without Y reached Z
            assertThat(output().out("Z")).doesNotContain("Declared");
        } finally {
            stop(protectors);
        }
    }

    /**
     * A few per cent of the packets on every inter-site link dropped at random (iptables in the namespaces), and every
     * connection to a site delayed each way (a relay in its namespace), over several timeouts while site Y's rank
     * commits lines: every line reaches X intact (verified, and byte for byte Y's), and no site is declared failed nor
     * stops itself. Then Y lost for real (its protector killed) under the same loss and delay: X declares it, verified
     * by Z.
     */
    @Test
    void lossAndDelayOnEveryLink_linesReplicateIntactAndNothingDeclared_thenSiteKilled_itIsDeclaredVerifiedByTheThird() throws Exception {
        String why = Netns.unavailableReason();
        assumeTrue(why == null, "skipped: " + why);
        String noIptables = Netns.iptablesUnavailableReason();
        assumeTrue(noIptables == null, "skipped: " + noIptables);
        JobSecret secret = JobSecret.create(dir, "job");
        Path tableFile = tableFile();
        Map<String, Process> protectors = new LinkedHashMap<>();
        Map<String, Process> relays = new LinkedHashMap<>();
        try (Netns net = new Netns()) {
            net.hub();
            for (int i = 0; i < SITES.size(); i++) {
                net.site(SITES.get(i), i + 1);
            }
            for (int i = 0; i < SITES.size(); i++) {
                int j = (i + 1) % SITES.size();
                net.loss(SITES.get(i), i + 1, SITES.get(j), j + 1, LOSS);
                String relay = "relay-" + SITES.get(i);
                relays.put(relay, new ProcessBuilder(net.delay(SITES.get(i), i + 1, PORT, PORT + 100, DELAY_MS))
                        .redirectOutput(dir.resolve(relay + ".out").toFile()).redirectError(dir.resolve(relay + ".err").toFile()).start());
            }
            startProtectors(net, tableFile, secret, protectors);
            for (String relay : relays.keySet()) {
                output().waitFor(relay, "listening", 60_000);
            }
            long start = System.nanoTime();
            Path siteY = dir.resolve("site-Y");
            try (Store store = Store.directory(siteY);
                    CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series(SERIES).retainLines(3).build(), store)) {
                double[] state = new double[LINE_DOUBLES];
                engine.protect("state", Scope.GLOBAL, state);
                for (long it = 1; it <= LINES; it++) {
                    java.util.Arrays.fill(state, it + 0.5);
                    state[(int) it] = -it;
                    engine.checkpoint(it);
                    engine.awaitDurable();
                    Thread.sleep(TIMEOUT_MS);
                }
            }
            output().waitFor("Y", "event Shipped site=Y series=" + SERIES + " iteration=" + LINES + " ", 60_000);
            long watched = (System.nanoTime() - start) / 1_000_000;
            long dropped = 0;
            for (String s : SITES) {
                dropped += net.dropped(s);
            }
            long suspicions = 0;
            for (String s : SITES) {
                String out = output().out(s);
                assertThat(out).as("site %s's events under %.0f %% loss", s, LOSS * 100).doesNotContain("Declared").doesNotContain("Stopped");
                suspicions += out.lines().filter(l -> l.startsWith("event LinkCut")).count();
            }
            System.out.printf("SiteNetnsTest: %.0f %% loss on every link, %d ms each way, %d ms watched (timeout %d ms): %d packets dropped,"
                    + " 0 declared, %d link(s) reported cut%n", LOSS * 100, DELAY_MS, watched, TIMEOUT_MS, dropped, suspicions);
            assertThat(dropped).as("packets the loss rules dropped").isPositive();
            // a line's copy is several operations one after the other, each at least one delayed round trip
            java.util.regex.Matcher took = java.util.regex.Pattern.compile("event Shipped site=Y .* took_ms=(\\d+)").matcher(output().out("Y"));
            assertThat(took.find()).isTrue();
            assertThat(Long.parseLong(took.group(1))).as("ms to ship Y's first line").isGreaterThanOrEqualTo(4 * 2 * DELAY_MS);
            System.out.printf("SiteNetnsTest: Y's first line shipped in %s ms%n", took.group(1));

            Path held = dir.resolve("held-X").resolve("Y");
            try (Store copies = Store.directory(held); Store original = Store.directory(siteY)) {
                StoreCatalog catalog = StoreCatalog.of(copies);
                List<LineInfo> lines = catalog.lines(SERIES);
                assertThat(lines).extracting(LineInfo::iteration).contains((long) LINES);
                for (LineInfo line : lines) {
                    assertThat(catalog.verifyLine(SERIES, line.sequence()).problems()).as("held line %d", line.iteration()).isEmpty();
                }
                LineInfo newest = lines.get(lines.size() - 1);
                for (String file : List.of(newest.dataFile(), newest.dataFile().replace(".ilc", ".commit"))) {
                    assertThat(Files.mismatch(held.resolve(file), siteY.resolve(file))).as("held %s against Y's", file).isEqualTo(-1L);
                }
            }

            protectors.get("Y").destroyForcibly(); // SIGKILL: site Y lost
            assertThat(protectors.get("Y").waitFor(20, TimeUnit.SECONDS)).isTrue();
            output().waitFor("X", "event Declared site=X target=Y verified_by=Z", 30_000);
            for (String s : List.of("X", "Z")) {
                assertThat(output().out(s)).as("site %s's events", s).doesNotContain("target=X").doesNotContain("target=Z")
                        .doesNotContain("Stopped");
            }
        } finally {
            stop(protectors);
            stop(relays);
        }
    }

    private Path tableFile() throws java.io.IOException {
        List<RankPlace> places = new ArrayList<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        for (int i = 0; i < SITES.size(); i++) {
            places.add(new RankPlace(i, "node-" + SITES.get(i), SITES.get(i)));
            addresses.put(SITES.get(i), Netns.address(i + 1) + ":" + PORT);
        }
        Topology table = Topology.of(places, List.of()).withProtectors(addresses);
        return Files.writeString(dir.resolve("table.txt"), table.encode());
    }

    /** Starts one protector JVM per site, in its namespace, and waits until each listens. */
    private void startProtectors(Netns net, Path tableFile, JobSecret secret, Map<String, Process> protectors) throws Exception {
        for (String s : SITES) {
            List<String> cmd = new ArrayList<>(net.exec(s));
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), SiteProtectorMain.class.getName(), "--site", s, "--table",
                    tableFile.toString(), "--site-folder", dir.resolve("site-" + s).toString(), "--held-folder",
                    dir.resolve("held-" + s).toString(), "--secret-file", secret.file().toString(), "--heartbeat-ms",
                    String.valueOf(HEARTBEAT_MS), "--timeout-ms", String.valueOf(TIMEOUT_MS)));
            protectors.put(s, new ProcessBuilder(cmd).redirectOutput(dir.resolve(s + ".out").toFile())
                    .redirectError(dir.resolve(s + ".err").toFile()).start());
        }
        for (String s : SITES) {
            output().waitFor(s, "listening", 60_000);
        }
    }

    private static void stop(Map<String, Process> protectors) throws InterruptedException {
        protectors.values().forEach(Process::destroyForcibly);
        for (Process p : protectors.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

}
