package io.ironloop.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.Folders;
import io.ironloop.cli.Main;
import io.ironloop.cli.view.TimelineFile;
import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksRank;
import io.ironloop.launcher.JobProcesses;
import io.ironloop.sites.Topology;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Site protection under {@code ironloop run} as an operator runs it: {@code Main run -n 3 --fake-sites 3 --fake-hosts 3
 * --spare-sites 1} in its own JVM, which starts the three rank JVMs of the heat block example (rank r on
 * {@code site-r}) and four cluster protector JVMs ({@code site-0..2}, {@code spare-0}); whole sites are lost by SIGKILL
 * to every process of the site, and the job finishes bit-identical to the failure-free run while the launcher's
 * output says where the sites' ranks went. One launcher run covers both ways on (one JVM start-up instead of two), with
 * {@code SITE_ENCRYPT} on: every connection of the protectors and the launcher's own are encrypted. A second run
 * ({@code -n 4 --fake-sites 3 --fake-hosts 4}) covers the node protectors and the controller failover.
 */
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SiteRunProcessTest {
    private static final long STEPS = 600;
    private static String reference;

    private final String jobId = "sites-" + UUID.randomUUID().toString().substring(0, 8);
    private Process launcher;

    @TempDir
    Path dir;

    @BeforeAll
    static void failureFreeReference() {
        reference = BlockReference.run(HeatBlocks.preset("test", STEPS)).digest();
    }

    @AfterEach
    void killEverything() {
        JobProcesses.killTree(launcher);
        JobProcesses.killJob(jobId); // ranks and protectors carry -Dironloop.job=ID
    }

    /**
     * Two sites lost one after the other under one launcher. First every process of {@code site-1} (rank 1 and its
     * protector): the survivors recover online while {@code site-0} declares it (verified by {@code site-2}) and places
     * it on the spare site {@code spare-0} (Fig. 3, table v2). Then {@code site-2}'s processes and rank 0 — the job is
     * down — and {@code site-2}'s storage: {@code spare-0}, now its protector, declares it (verified by {@code site-0})
     * and places the site checkpoint it holds on its own site (Fig. 4, table v3, no spare left); the launcher waits for
     * that placement, asks a protector for the table and relaunches ranks 1 and 2 on {@code spare-0}, which resume from
     * a placed line, bit-identical.
     */
    @Test
    void twoSitesLostOneAfterTheOther_onlineThenRelaunchedOnTheSpareSiteFromThePlacedCheckpoint_bitIdentical() throws Exception {
        startLauncher();
        awaitShipped("site-1", "rank-00001", 20, 0);
        List<String> protectorArgs = JobProcesses.arguments(ProcessHandle.of(protectorPid("site-0")).orElseThrow());
        assertThat(protectorArgs.get(protectorArgs.indexOf("--encrypt") + 1)).isEqualTo("true"); // SITE_ENCRYPT reached them
        kill(protectorPid("site-1"), rankPid(1)); // every process of site-1

        int afterPlacement = awaitTimeline("\"type\":\"site-recovered\",\"fields\":\\{\"site\":\"site-0\",\"failed\":\"site-1\"").end();
        long shipped = awaitShipped("site-2", "rank-00002", 0, afterPlacement); // now to spare-0, its protector in table v2
        kill(protectorPid("site-2"), rankPid(2), rankPid(0)); // every process of site-2, and with it the job
        deleteTree(dir.resolve("ckpt").resolve("rank-00002")); // site-2's storage is gone: only spare-0's copy is left

        assertThat(awaitExit()).as(err()).isZero();
        assertThat(out()).contains("result sha256=" + reference);
        String err = err();
        assertThat(err).contains("site site-1 declared failed by the protector of site-0, verified by site-2")
                .contains("on spare-0 (SPARE_SITE); table v2: ranks [1] run on spare-0 from now on")
                .contains("site site-2 declared failed by the protector of spare-0, verified by site-0")
                .contains("sites [site-2] lost: waiting for their protectors")
                .contains("relaunching ranks [1, 2] on site spare-0 (table v3")
                .contains("all 3 ranks exited 0 in attempt 1 (after 1 restart); 1 online recovery");
        assertThat(err).doesNotContain("site site-0 declared").doesNotContain("site spare-0 declared");
        Matcher placed = Pattern.compile("placed its site checkpoint \\((\\d+) line\\(s\\) of rank-00002, newest iteration (\\d+)\\)"
                + " on spare-0 \\(PROTECTOR_SITE\\); table v3").matcher(err);
        assertThat(placed.find()).as(err).isTrue();
        assertThat(Long.parseLong(placed.group(2))).isGreaterThanOrEqualTo(shipped);
        Matcher resumed = Pattern.compile("resumed at step (\\d+)").matcher(err);
        assertThat(resumed.find()).as("the relaunch resumed from a disk line:%n%s", err).isTrue();
        assertThat(Long.parseLong(resumed.group(1))).isPositive().isLessThanOrEqualTo(Long.parseLong(placed.group(2)));
        assertThat(timeline()).contains("\"type\":\"site-ranks-moved\"");
        assertThat(JobProcesses.ranksOf(jobId)).as("no rank or protector outlives the launcher").isEmpty();
    }

    /**
     * Node protectors under {@code ironloop run}: {@code -n 4 --fake-sites 3 --fake-hosts 4} gives {@code site-0} two
     * nodes (ranks 0 and 1 on {@code host-0} and {@code host-1}), so the launcher starts a protector process per node of
     * it ({@code SiteProtectorMain --node}; the cluster protector runs in {@code host-0}'s) and one per other site. The
     * controller node lost — SIGKILL to its protector process and to rank 0 → {@code host-1}'s protector declares it (a
     * ring of two nodes) and runs the site's cluster protector from then on, which ships {@code site-0}'s next lines; rank
     * 1, on {@code site-0}'s other node, finds the address it was started with dead when it tells the protector of a line
     * it committed, learns the new one from a protector (error masking, Algorithm 4: {@code site-protector-moved} in the
     * timeline) and that line is shipped from {@code host-1}'s process; no site is declared failed; the survivors recover rank 0 online and the job finishes bit-identical; every protector
     * answers table v2 at its end. Encrypted, as the failover's new cluster protector must be too.
     */
    @Test
    void controllerNodeKilled_clusterProtectorFailsOverToTheNextNode_noSiteDeclared_bitIdentical() throws Exception {
        long steps = 400;
        startLauncher(List.of("-n", "4", "--fake-sites", "3", "--fake-hosts", "4"), steps, ", \"SITE_TIMEOUT\": \"1500ms\"");
        awaitShipped("site-0", "rank-00000", 0, 0);
        assertThat(JobProcesses.ranksOf(jobId).stream().filter(p -> JobProcesses.arguments(p).contains("-Dironloop.site=site-0")))
                .as("one protector process per node of site-0").hasSize(2);
        List<String> host0 = JobProcesses.arguments(ProcessHandle.of(protectorPid("site-0", "host-0")).orElseThrow());
        String initialProtector = Topology.parse(Files.readString(Path.of(host0.get(host0.indexOf("--table") + 1)), StandardCharsets.UTF_8))
                .site("site-0").protector(); // the cluster protector's address the ranks were started with
        kill(protectorPid("site-0", "host-0"), rankPid(0)); // every process of node host-0

        MatchResult failover = awaitTimeline("\"type\":\"site-failed-over\",\"fields\":\\{\"site\":\"site-0\",\"node\":\"host-1\","
                + "\"failed\":\"host-0\",\"address\":\"(127\\.0\\.0\\.1:\\d+)\",\"table_version\":\"2\"");
        // error masking: rank 1, on site-0's other node, finds the address it knew dead when it tells the protector of its
        // next line, learns the new one from a protector's table and tells it there; that line is shipped from host-1's JVM
        MatchResult moved = awaitTimeline("\"type\":\"site-protector-moved\",\"fields\":\\{\"site\":\"site-0\",\"from\":\""
                + Pattern.quote(initialProtector) + "\",\"to\":\"" + Pattern.quote(failover.group(1)) + "\",\"table_version\":2,"
                + "\"asked\":\"127\\.0\\.0\\.1:\\d+\",\"series\":\"rank-00001\",\"iteration\":(\\d+)");
        awaitShipped("site-0", "rank-00001", Long.parseLong(moved.group(1)), failover.end()); // by the cluster protector now in host-1's process

        assertThat(awaitExit()).as(err()).isZero();
        assertThat(out()).contains("result sha256=" + BlockReference.run(HeatBlocks.preset("test", steps)).digest());
        assertThat(err()).contains("node host-0 of site site-0 declared failed by the protector of node host-1 (a ring of two nodes",
                "site site-0 lost its controller node host-0: its cluster protector failed over to node host-1, now at 127.0.0.1:",
                "site table at the end of the job: v2", "the 3 surviving ranks exited 0 after losing rank [0]; 1 online recovery")
                .doesNotContain("declared failed by the protector of site");
        assertThat(Pattern.compile("(?m)^\\[1\\] .*cannot tell the cluster protector of site site-0").matcher(err()).results().count())
                .as("the protector unreachable meanwhile: logged once at most, not per line").isLessThanOrEqualTo(1);
        String timeline = timeline();
        assertThat(timeline).contains("\"type\":\"site-node-declared\"").doesNotContain("\"type\":\"site-declared\"");
        assertThat(Pattern.compile("\"type\":\"site-table-asked\",\"fields\":\\{\"site\":\"site-(1|2)\",\"table_version\":\"2\"")
                .matcher(timeline).results().count()).as("sites 1 and 2 learnt table v2").isEqualTo(2);
        assertThat(JobProcesses.ranksOf(jobId)).as("no rank or protector outlives the launcher").isEmpty();
    }

    private void startLauncher() throws IOException {
        startLauncher(List.of("-n", "3", "--fake-sites", "3", "--fake-hosts", "3", "--spare-sites", "1", "--restarts", "1"), STEPS, "");
    }

    private void startLauncher(List<String> runOptions, long steps, String moreParams) throws IOException {
        Path params = dir.resolve("params.json");
        // snapshots every 5 steps, each on disk too (the lines the protectors ship), enough lines kept that the survivors
        // still hold the site checkpoint's iteration at a relaunch; fast failure detection of the ranks; the protectors'
        // connections (and the launcher's, asking for the table) encrypted
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("ckpt") + "\", \"SNAPSHOT_EVERY\": 5, \"DISK_EVERY\": 1,"
                + " \"SITE_ENCRYPT\": true" + moreParams + ","
                + " \"RETAIN_LINES\": 40, \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": \"2s\", \"SLEEP_THREAD_TIME\": \"500ms\"}}");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JobProcesses.SMALL_JVM);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--job", jobId));
        cmd.addAll(runOptions);
        cmd.addAll(List.of("--params", params.toString()));
        JobProcesses.SMALL_JVM.forEach(o -> cmd.add("--jvm-opt=" + o));
        cmd.addAll(List.of("--", HeatBlocksRank.class.getName(), "test", "--steps", String.valueOf(steps), "--pace-ms", "15"));
        launcher = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    /**
     * Waits until {@code site}'s protector has shipped a line of {@code series} at or past {@code iteration}, reported in
     * the timeline file after its first {@code from} characters; returns the line's iteration.
     */
    private long awaitShipped(String site, String series, long iteration, int from) {
        Pattern shipped = Pattern.compile("\"type\":\"site-shipped\",\"fields\":\\{\"site\":\"" + site + "\",\"series\":\"" + series
                + "\",\"iteration\":\"(\\d+)\"");
        long[] seen = {-1};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Matcher m = shipped.matcher(timeline());
            m.region(Math.min(from, m.regionEnd()), m.regionEnd());
            while (m.find()) {
                seen[0] = Math.max(seen[0], Long.parseLong(m.group(1)));
            }
            alive();
            return seen[0] >= iteration;
        });
        return seen[0];
    }

    /** Waits until the timeline file holds {@code regex}; returns the match (its end: the offset after it). */
    private MatchResult awaitTimeline(String regex) {
        Pattern p = Pattern.compile(regex);
        MatchResult[] found = {null};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Matcher m = p.matcher(timeline());
            alive();
            if (m.find()) {
                found[0] = m.toMatchResult();
                return true;
            }
            return false;
        });
        return found[0];
    }

    private void alive() throws IOException {
        if (!launcher.isAlive()) {
            throw new AssertionError("the launcher ended early:\n" + err());
        }
    }

    private long rankPid(int rank) {
        return JobProcesses.rankOf(jobId, rank).orElseThrow(() -> new AssertionError("no rank " + rank)).pid();
    }

    private long protectorPid(String site) {
        return JobProcesses.ranksOf(jobId).stream().filter(p -> JobProcesses.arguments(p).contains("-Dironloop.site=" + site))
                .findFirst().orElseThrow(() -> new AssertionError("no protector of " + site)).pid();
    }

    private long protectorPid(String site, String node) {
        return JobProcesses.ranksOf(jobId).stream().filter(p -> JobProcesses.arguments(p).contains("-Dironloop.site=" + site)
                && JobProcesses.arguments(p).contains("-Dironloop.node=" + node))
                .findFirst().orElseThrow(() -> new AssertionError("no protector of node " + node + " of " + site)).pid();
    }

    private static void kill(long... pids) throws InterruptedException {
        List<ProcessHandle> handles = new ArrayList<>();
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(h -> {
                h.destroyForcibly(); // SIGKILL
                handles.add(h);
            });
        }
        for (ProcessHandle h : handles) {
            h.onExit().orTimeout(20, TimeUnit.SECONDS).exceptionally(t -> h).join();
        }
    }

    private int awaitExit() throws InterruptedException, IOException {
        assertThat(launcher.waitFor(180, TimeUnit.SECONDS)).as("launcher exited:%n%s", err()).isTrue();
        return launcher.exitValue();
    }

    private String timeline() throws IOException {
        Path f = TimelineFile.in(dir.resolve("ckpt"));
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    }

    private String out() throws IOException {
        return Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
    }

    private String err() throws IOException {
        return Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path root) throws IOException {
        Folders.deleteTree(root);
        assertThat(root).doesNotExist();
    }
}
