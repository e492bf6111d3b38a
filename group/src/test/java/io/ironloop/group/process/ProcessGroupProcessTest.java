package io.ironloop.group.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real rank JVMs started with the launcher's environment contract; real kill -9 and SIGSTOP. At most 4
 * JVMs at a time, each with a 256 MiB heap.
 */
class ProcessGroupProcessTest {
    @TempDir
    Path dir;
    private ChildJob job;

    @AfterEach
    void destroyChildren() {
        if (job != null) {
            job.close();
        }
    }

    private static Duration formation() {
        return Duration.ofSeconds(60);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void collectives_realProcesses_bitIdenticalOnEveryRank(int n) throws Exception {
        job = new ChildJob(n, "coll" + n, dir, "collectives", "STAR", "0");
        job.awaitHealthy(formation(), () -> job.all("RESULT", -1));
        Set<String> results = new HashSet<>();
        for (int r = 0; r < n; r++) {
            results.add(job.line(r, "RESULT").orElseThrow());
        }
        assertThat(results).hasSize(1);
        assertThat(results.iterator().next()).contains(" true [" + (n - 1) + ", 0] ");
    }

    /** Kills the victim with SIGKILL (or stops it with SIGSTOP) and returns the detection time in seconds. */
    private double failVictim(int n, String name, String scenario, String victimSpec, boolean stop, double boundSeconds) throws Exception {
        return failVictim(n, name, scenario, victimSpec, stop, boundSeconds, 0, 0);
    }

    /**
     * Like {@link #failVictim(int, String, String, String, boolean, double)}, waiting {@code quietMillis}
     * after every rank is ready before the failure, and stopping the last rank for {@code stallMillis}
     * right after it (a survivor starved of CPU while the others react to the failure).
     */
    private double failVictim(int n, String name, String scenario, String victimSpec, boolean stop, double boundSeconds,
            long quietMillis, long stallMillis) throws Exception {
        job = new ChildJob(n, name, dir, scenario, "STAR", victimSpec);
        job.awaitHealthy(formation(), () -> job.all("READY", -1));
        String ready = job.line(0, "READY").orElseThrow();
        int victim = Integer.parseInt(ready.substring(ready.indexOf("victim=") + 7));
        if (quietMillis > 0) {
            Thread.sleep(quietMillis); // a test of what the ranks do after a quiet period, not synchronisation
        }
        long t0 = System.currentTimeMillis();
        if (stop) {
            job.signal(victim, "STOP");
        } else {
            job.processes.get(victim).toHandle().destroyForcibly();
        }
        if (stallMillis > 0) {
            job.signal(n - 1, "STOP");
            Thread.sleep(stallMillis);
            job.signal(n - 1, "CONT");
        }
        String done = scenario.equals("agree") ? "AGREED" : "SHRUNK";
        job.await(Duration.ofSeconds(30), () -> job.all(done, victim));
        long last = 0;
        for (int r = 0; r < n; r++) {
            if (r != victim && !scenario.equals("agree")) {
                String failed = job.line(r, "FAILED").orElseThrow();
                assertThat(failed).endsWith("[" + victim + "]");
                last = Math.max(last, Long.parseLong(failed.split(" ")[1]));
            }
        }
        double seconds = (last - t0) / 1000.0;
        if (!scenario.equals("agree")) {
            System.err.printf("%s: detection %.2f s after %s of rank %d%n", name, seconds, stop ? "SIGSTOP" : "kill -9", victim);
            assertThat(seconds).as("detection time, bound %.1f s", boundSeconds).isLessThanOrEqualTo(boundSeconds);
        }
        if (stop) {
            job.signal(victim, "CONT");
        }
        return seconds;
    }

    @Test
    void killNonLeaderDuringAllreduce_survivorsThrowWithinBound_shrinkWorks() throws Exception {
        failVictim(4, "kill", "fail", "next", false, 2.5);
        for (int r = 0; r < 4; r++) {
            if (job.line(r, "SHRUNK").isPresent()) {
                assertThat(job.line(r, "SHRUNK").orElseThrow()).startsWith("SHRUNK 3 sum=");
            }
        }
        int victim = Integer.parseInt(job.line(0, "READY").orElseThrow().replaceAll(".*victim=", ""));
        int expected = 0 + 1 + 2 + 3 - victim;
        assertThat(job.line((victim + 1) % 4, "SHRUNK").orElseThrow()).contains("sum=" + (double) expected);
    }

    /**
     * Every rank runs large allreduces, which go through shared memory between these ranks of one host, and the victim is
     * killed in the middle of one: the survivors throw in time (no hang), no result they got was wrong, and after the
     * shrink their large allreduce (new files for the new group) is right again.
     */
    @Test
    void killDuringSharedMemoryAllreduces_survivorsThrowWithinBound_noWrongResult() throws Exception {
        failVictim(3, "shmkill", "largefail", "next", false, 2.5);
        int victim = Integer.parseInt(job.line(0, "READY").orElseThrow().replaceAll(".*victim=", ""));
        for (int r = 0; r < 3; r++) {
            assertThat(job.line(r, "CORRUPT")).as("rank " + r).isEmpty();
            if (r != victim) {
                assertThat(job.line(r, "SHRUNK").orElseThrow()).as("rank " + r).startsWith("SHRUNK 2 sum=").endsWith(" large=true");
            }
        }
    }

    @Test
    void killLeader_survivorsContinueUnderNewLeader() throws Exception {
        failVictim(3, "leader", "fail", "leader", false, 3.0);
        int victim = Integer.parseInt(job.line(0, "READY").orElseThrow().replaceAll(".*victim=", ""));
        for (int r = 0; r < 3; r++) {
            if (r != victim) {
                String shrunk = job.line(r, "SHRUNK").orElseThrow();
                assertThat(shrunk).startsWith("SHRUNK 2 sum=").doesNotContain("leaderWorld=" + victim);
            }
        }
    }

    @Test
    void killAgreementCoordinatorDuringAgree_everySurvivorReturnsSameValue() throws Exception {
        failVictim(3, "agree", "agree", "0", false, 0);
        assertThat(job.line(1, "AGREED").orElseThrow()).isEqualTo("AGREED 101");
        assertThat(job.line(2, "AGREED").orElseThrow()).isEqualTo("AGREED 101");
    }

    /**
     * The CI failure (rank 1 AGREED 101, rank 2 AGREED 102), made reproducible: after a quiet period longer
     * than TIME_MAX_WAIT (so the survivors' last news of each other is old), the coordinator is killed
     * and rank 2 stalls for 3 s. Rank 1, taking over, used to suspect rank 2 at once (stale heartbeat
     * time, and FD_SOCK2's 1 s connect timeout), exclude it after the 500 ms verification, decide alone
     * and leave; rank 2 then decided alone. A 3 s stall is below TIME_MAX_WAIT: nobody may be excluded.
     */
    @Test
    void killAgreementCoordinatorWhileSurvivorStalls_everySurvivorReturnsSameValue() throws Exception {
        failVictim(3, "agreestall", "agree", "0", false, 0, 6_000, 3_000);
        assertThat(job.line(1, "AGREED").orElseThrow()).isEqualTo("AGREED 101");
        assertThat(job.line(2, "AGREED").orElseThrow()).isEqualTo("AGREED 101");
    }

    /** Also: the stopped rank, once resumed, learns from the survivors' fence that it was declared failed. */
    @Test
    void sigstop_detectedAsFailedWithinTimeoutPlusIntervalPlusOne_resumedRankIsFenced() throws Exception {
        failVictim(3, "hang", "fail", "next", true, 5 + 1 + 1);
        int victim = Integer.parseInt(job.line(0, "READY").orElseThrow().replaceAll(".*victim=", ""));
        job.await(Duration.ofSeconds(30), () -> job.line(victim, "FENCED").isPresent());
    }

    @ParameterizedTest
    @ValueSource(strings = {"STAR", "RING"})
    void heartbeats_fourRanks_growLinearlyNotQuadratically(String arrangement) throws Exception {
        int n = 4;
        job = new ChildJob(n, "hb" + arrangement, dir, "heartbeats", arrangement, "0");
        job.awaitHealthy(formation(), () -> job.all("HEARTBEATS", -1));
        String[] parts = job.line(0, "HEARTBEATS").orElseThrow().split(" ");
        double received = Double.parseDouble(parts[1]);
        int expected = arrangement.equals("STAR") ? 2 * (n - 1) : n;
        System.err.printf("heartbeats at %d ranks (%s): %.2f received per 1 s interval, %s sent%n", n, arrangement, received, parts[2]);
        assertThat(received).as("%d expected, N(N-1) = %d would be all-to-all", expected, n * (n - 1))
                .isBetween(0.7 * expected, 1.3 * expected);
    }
}
