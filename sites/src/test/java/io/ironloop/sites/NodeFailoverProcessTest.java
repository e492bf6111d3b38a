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
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Controller failover with real processes: site X runs on nodes x1 (its controller) and x2, one
 * {@code SiteProtectorMain --node} JVM each; sites Y and Z run a cluster protector JVM each. SIGKILL to x1's JVM → x2
 * declares x1, starts X's cluster protector in its own JVM, the table v2 reaches Y and Z, X's next line is shipped to
 * Z through the new protector, and no site is declared failed. The same with x1's JVM hung (SIGSTOP) instead of
 * killed: the failover happens alike, and x1, resumed, steps down without declaring anyone.
 */
class NodeFailoverProcessTest {
    private static final long HEARTBEAT_MS = 100;
    private static final long TIMEOUT_MS = 1500; // as SiteNetnsTest: shorter risks a false declaration at load 30+

    @TempDir
    Path dir;

    private ProtectorOutput output() {
        return new ProtectorOutput(dir);
    }

    private final Map<String, Process> processes = new LinkedHashMap<>();

    @AfterEach
    void killAll() throws InterruptedException {
        processes.values().forEach(Process::destroyForcibly);
        for (Process p : processes.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Kernel-chosen loopback ports, released for the protector JVMs to bind. */
    private static List<String> loopbackAddresses(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                out.add("127.0.0.1:" + s.getLocalPort());
            }
            return out;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    private void start(String name, Path table, JobSecret secret, String site, String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), SiteProtectorMain.class.getName(),
                "--site", site, "--table", table.toString(), "--site-folder", dir.resolve("site-" + site).toString(), "--held-folder",
                dir.resolve("held-" + name).toString(), "--secret-file", secret.file().toString(), "--heartbeat-ms",
                String.valueOf(HEARTBEAT_MS), "--timeout-ms", String.valueOf(TIMEOUT_MS)));
        cmd.addAll(List.of(extra));
        processes.put(name, new ProcessBuilder(cmd).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile()).start());
    }

    private static void writeLine(Path folder, long iteration) {
        double[] state = new double[10_000];
        java.util.Arrays.fill(state, iteration);
        try (Store store = Store.directory(folder);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series("rank-00000").retainLines(10)
                        .build(), store)) {
            engine.protect("state", Scope.GLOBAL, state);
            engine.checkpoint(iteration);
            engine.awaitDurable();
        }
    }

    /**
     * Starts site X on nodes x1 (controller) and x2, a JVM each, and a cluster protector JVM each for Y and Z, once X
     * has shipped its first line (the site ring is up).
     *
     * @return the addresses: X, Y, Z's cluster protectors, then x1's and x2's node protectors
     */
    private List<String> startSites(JobSecret secret) throws Exception {
        List<String> at = loopbackAddresses(5);
        Topology table = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "x2", "X"), new RankPlace(2, "y1", "Y"),
                new RankPlace(3, "z1", "Z")), List.of()).withProtectors(Map.of("X", at.get(0), "Y", at.get(1), "Z", at.get(2)))
                .withNodeProtectors(Map.of("x1", at.get(3), "x2", at.get(4)));
        Path tableFile = Files.writeString(dir.resolve("table.txt"), table.encode());
        writeLine(dir.resolve("site-X"), 1);
        start("x1", tableFile, secret, "X", "--node", "x1");
        start("x2", tableFile, secret, "X", "--node", "x2");
        start("Y", tableFile, secret, "Y");
        start("Z", tableFile, secret, "Z");
        for (String p : processes.keySet()) {
            output().waitFor(p, "listening", 60_000);
        }
        output().waitFor("x1", "event Shipped site=X series=rank-00000 iteration=1", 30_000); // the site ring is up
        Thread.sleep(5 * HEARTBEAT_MS); // a few node heartbeats: a watcher counts silence from the first it heard
        return at;
    }

    /** x2 declared x1 (a ring of two nodes: not verified), runs X's cluster protector, and Y and Z hold table v2. */
    private void awaitFailover() throws Exception {
        output().waitFor("x2", "event NodeDeclared site=X node=x2 target=x1 verified_by=-", 20_000);
        output().waitFor("x2", "event FailedOver site=X node=x2 failed=x1 address=127.0.0.1:", 10_000);
        for (String s : List.of("Y", "Z")) {
            output().waitFor(s, "event TableChanged site=" + s + " table_version=2", 10_000);
        }
    }

    /** No protector of {@code names} declared a site or stopped, and each still runs. */
    private void assertNoSiteDeclared(String... names) throws IOException {
        for (String p : names) {
            assertThat(output().out(p)).as("%s's events", p).doesNotContain("event Declared").doesNotContain("event Stopped")
                    .doesNotContain("event NodeStopped");
            assertThat(processes.get(p).isAlive()).as("%s runs", p).isTrue();
        }
    }

    @Test
    void controllerJvmKilled_nextNodeRunsTheClusterProtector_tableEverywhere_noSiteDeclared() throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        List<String> at = startSites(secret);

        processes.get("x1").destroyForcibly(); // SIGKILL: X's controller node, its node and cluster protectors with it
        assertThat(processes.get("x1").waitFor(10, TimeUnit.SECONDS)).isTrue();
        awaitFailover();
        writeLine(dir.resolve("site-X"), 2);
        output().waitFor("x2", "event Shipped site=X series=rank-00000 iteration=2", 20_000); // to Z, from x2's JVM
        Topology now = SiteProtector.fetchTable(SiteProtector.address(at.get(2)), secret, java.time.Duration.ofMillis(TIMEOUT_MS));
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.site("X").controller()).isEqualTo("x2");
        assertThat(output().out("x2")).contains("address=" + now.site("X").protector());

        Thread.sleep(TIMEOUT_MS); // the site ring runs on clean
        assertNoSiteDeclared("x2", "Y", "Z");
    }

    /**
     * The controller node hung, not dead: SIGSTOP to x1's JVM (its node protector and X's cluster protector) → x2
     * declares x1 and fails X's cluster protector over, and Z's suspicion of X ends in a cut link (Y reaches x2 while
     * x1 hangs); SIGCONT → x1 learns table v2 from its first heartbeat and steps down (exit 3) without declaring
     * anyone, although it slept through more than a timeout of its neighbours' silence; X's next line is shipped from
     * x2.
     */
    @Test
    void controllerJvmStopped_failsOver_resumedItStepsDownWithoutDeclaring() throws Exception {
        JobSecret secret = JobSecret.create(dir, "job");
        startSites(secret);

        signal("x1", "STOP");
        awaitFailover();
        Thread.sleep(TIMEOUT_MS); // x1 hangs on past another timeout: everything it watched is silent when it resumes
        signal("x1", "CONT");
        assertThat(processes.get("x1").waitFor(30, TimeUnit.SECONDS)).as("x1 steps down").isTrue();
        assertThat(processes.get("x1").exitValue()).isEqualTo(3);
        String x1 = output().out("x1");
        assertThat(x1).contains("event NodeStopped site=X node=x1").doesNotContain("event Declared").doesNotContain("event NodeDeclared")
                .doesNotContain("event Suspected");
        writeLine(dir.resolve("site-X"), 2);
        output().waitFor("x2", "event Shipped site=X series=rank-00000 iteration=2", 20_000); // to Z, from x2's JVM
        assertThat(x1).doesNotContain("iteration=2");
        assertNoSiteDeclared("x2", "Y", "Z");
    }

    /** Sends {@code SIG<name>} to a protector's JVM ({@code kill -STOP}, {@code kill -CONT}). */
    private void signal(String name, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(processes.get(name).pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s", signal).isZero();
    }
}
