package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * itself and its protector declare it, confirmed by the third. Skipped where namespaces cannot be created.
 */
class SiteNetnsTest {
    private static final List<String> SITES = List.of("X", "Y", "Z");
    private static final long HEARTBEAT_MS = 100;
    private static final long TIMEOUT_MS = 1500; // shorter ones risk a false declaration at load 30+

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
        List<RankPlace> places = new ArrayList<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        for (int i = 0; i < SITES.size(); i++) {
            places.add(new RankPlace(i, "node-" + SITES.get(i), SITES.get(i)));
            addresses.put(SITES.get(i), Netns.address(i + 1) + ":7700");
        }
        Topology table = Topology.of(places, List.of()).withProtectors(addresses);
        Path tableFile = Files.writeString(dir.resolve("table.txt"), table.encode());
        Map<String, Process> protectors = new LinkedHashMap<>();
        try (Netns net = new Netns()) {
            net.hub();
            for (int i = 0; i < SITES.size(); i++) {
                net.site(SITES.get(i), i + 1);
            }
            for (String s : SITES) {
                List<String> cmd = new ArrayList<>(net.exec(s));
                cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                        "-cp", System.getProperty("java.class.path"), SiteProtectorMain.class.getName(), "--site", s, "--table",
                        tableFile.toString(), "--site-folder", dir.resolve("site-" + s).toString(), "--held-folder",
                        dir.resolve("held-" + s).toString(), "--secret-file", secret.file().toString(), "--heartbeat-ms",
                        String.valueOf(HEARTBEAT_MS), "--timeout-ms", String.valueOf(TIMEOUT_MS)));
                protectors.put(s, new ProcessBuilder(cmd).redirectOutput(dir.resolve(s + ".out").toFile())
                        .redirectError(dir.resolve(s + ".err").toFile()).start());
            }
            for (String s : SITES) {
                output().waitFor(s, "listening", 60_000);
            }
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
            protectors.values().forEach(Process::destroyForcibly);
            for (Process p : protectors.values()) {
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

}
