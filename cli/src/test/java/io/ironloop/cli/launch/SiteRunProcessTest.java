package io.ironloop.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.cli.Main;
import io.ironloop.cli.view.TimelineFile;
import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksRank;
import io.ironloop.launcher.JobProcesses;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Site protection under {@code ironloop run} as an operator runs it: {@code Main run -n 3 --fake-sites 3 --fake-hosts 3
 * --spare-sites 1} in its own JVM, which starts the three rank JVMs of the heat block example (rank r on
 * {@code site-r}) and four cluster protector JVMs ({@code site-0..2}, {@code spare-0}). Once {@code site-1}'s
 * protector has shipped a line of rank 1 past iteration 20 to {@code site-0}, every process of {@code site-1} is
 * killed with SIGKILL (its rank and its protector). Either the survivors recover online, or — when the whole job went
 * down with the site and the site's storage is gone — the launcher waits for {@code site-0} to place the site
 * checkpoint on {@code spare-0} (verified by {@code site-2}) and relaunches rank 1 there, from that checkpoint. Both
 * end bit-identical to the failure-free run, and the launcher's output says where the site's ranks went.
 */
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SiteRunProcessTest {
    private static final long STEPS = 300;
    private static final Pattern SHIPPED = Pattern.compile(
            "\"type\":\"site-shipped\",\"fields\":\\{\"site\":\"site-1\",\"series\":\"rank-00001\",\"iteration\":\"(\\d+)\"");
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

    @Test
    void wholeSiteKilled_survivorsRecoverOnline_protectorsPlaceItsCheckpointOnTheSpare_bitIdentical() throws Exception {
        startLauncher();
        awaitShippedPast(20);
        long rank = rankPid(1);
        long protector = protectorPid("site-1");

        kill(protector, rank); // every process of site-1

        assertThat(awaitExit()).as(err()).isZero();
        assertThat(out()).contains("result sha256=" + reference);
        String err = err();
        assertThat(err).contains("site site-1 declared failed by the protector of site-0, verified by site-2")
                .contains("site site-1 lost: the protector of site-0 ")
                .contains("on spare-0 (SPARE_SITE); table v2: ranks [1] run on spare-0 from now on")
                .contains("1 online recovery");
        assertThat(err).doesNotContain("declared failed by the protector of site-1").doesNotContain("site site-0 declared")
                .doesNotContain("site site-2 declared");
        assertThat(JobProcesses.ranksOf(jobId)).as("no rank or protector outlives the launcher").isEmpty();
    }

    @Test
    void wholeSiteAndJobLost_relaunchedWithItsRanksOnTheSpareSite_fromThePlacedCheckpoint_bitIdentical() throws Exception {
        startLauncher();
        long shipped = awaitShippedPast(20);
        List<Long> pids = new ArrayList<>(List.of(protectorPid("site-1")));
        for (int r = 0; r < 3; r++) {
            pids.add(rankPid(r));
        }

        kill(pids.stream().mapToLong(Long::longValue).toArray()); // site-1, and with it the whole job
        deleteTree(dir.resolve("ckpt").resolve("rank-00001")); // site-1's storage is gone: only site-0's copy is left

        assertThat(awaitExit()).as(err()).isZero();
        assertThat(out()).contains("result sha256=" + reference);
        String err = err();
        assertThat(err).contains("site site-1 declared failed by the protector of site-0, verified by site-2")
                .contains("sites [site-1] lost: waiting for their protectors")
                .contains("relaunching ranks [1] on site spare-0 (table v2");
        Matcher placed = Pattern.compile("placed its site checkpoint \\((\\d+) line\\(s\\) of rank-00001, newest iteration (\\d+)\\)")
                .matcher(err);
        assertThat(placed.find()).as(err).isTrue();
        assertThat(Integer.parseInt(placed.group(1))).isPositive();
        assertThat(Long.parseLong(placed.group(2))).isGreaterThanOrEqualTo(shipped);
        Matcher resumed = Pattern.compile("resumed at step (\\d+)").matcher(err);
        assertThat(resumed.find()).as("the relaunch resumed from a disk line:%n%s", err).isTrue();
        assertThat(Long.parseLong(resumed.group(1))).isPositive().isLessThanOrEqualTo(Long.parseLong(placed.group(2)));
        assertThat(timeline()).contains("\"type\":\"site-ranks-moved\"", "\"site\":\"spare-0\"");
        assertThat(err).contains("after 1 restart");
    }

    private void startLauncher() throws IOException {
        Path params = dir.resolve("params.json");
        // snapshots every 5 steps, each on disk too (the lines the protectors ship), enough lines kept that the survivors
        // still hold the site checkpoint's iteration at a relaunch; fast failure detection of the ranks
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("ckpt") + "\", \"SNAPSHOT_EVERY\": 5, \"DISK_EVERY\": 1,"
                + " \"RETAIN_LINES\": 40, \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": \"2s\", \"SLEEP_THREAD_TIME\": \"500ms\"}}");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JobProcesses.SMALL_JVM);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--job", jobId, "-n", "3",
                "--fake-sites", "3", "--fake-hosts", "3", "--spare-sites", "1", "--restarts", "1", "--params", params.toString()));
        JobProcesses.SMALL_JVM.forEach(o -> cmd.add("--jvm-opt=" + o));
        cmd.addAll(List.of("--", HeatBlocksRank.class.getName(), "test", "--steps", String.valueOf(STEPS), "--pace-ms", "15"));
        launcher = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    /** Waits until site-1's protector has shipped a line of rank 1 at or past {@code iteration}; returns its iteration. */
    private long awaitShippedPast(long iteration) {
        long[] seen = {-1};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Matcher m = SHIPPED.matcher(timeline());
            while (m.find()) {
                seen[0] = Math.max(seen[0], Long.parseLong(m.group(1)));
            }
            if (!launcher.isAlive()) {
                throw new AssertionError("the launcher ended early:\n" + err());
            }
            return seen[0] >= iteration;
        });
        return seen[0];
    }

    private long rankPid(int rank) {
        return JobProcesses.rankOf(jobId, rank).orElseThrow(() -> new AssertionError("no rank " + rank)).pid();
    }

    private long protectorPid(String site) {
        return JobProcesses.ranksOf(jobId).stream().filter(p -> JobProcesses.arguments(p).contains("-Dironloop.site=" + site))
                .findFirst().orElseThrow(() -> new AssertionError("no protector of " + site)).pid();
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
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        assertThat(root).doesNotExist();
    }
}
