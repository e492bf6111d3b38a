package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksRank;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block heat example in real rank JVMs under the launcher, losing ranks to real SIGKILL and SIGSTOP: the
 * job recovers inside itself (no relaunch, the survivors keep their JVMs) from partner copies, with a
 * spare, or — when a rank and the holder of its copy die together — by rolling back to the disk line, and
 * ends with the same result as a failure-free single-process run. At most four rank JVMs at a time.
 */
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BlockRecoveryProcessTest {
    private static final long STEPS = 240;
    private static String reference;

    private final String jobId = "blocks-" + UUID.randomUUID().toString().substring(0, 8);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    /** More keys of the parameter file (after a comma), for the tests of other schemes. */
    private String moreParams = "";

    @BeforeAll
    static void failureFreeReference() {
        reference = BlockReference.run(HeatBlocks.preset("test", STEPS)).digest();
    }

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    private LaunchResult launch(int ranks, Consumer<LaunchSpec.Builder> customize, String... extraArgs) throws Exception {
        Path params = dir.resolve("params.json");
        // snapshots every 5 steps, a disk line every other snapshot; fast failure detection
        Files.writeString(params, "{\"FT_FOLDER\": \"" + dir.resolve("ckpt") + "\", \"SNAPSHOT_EVERY\": 5, \"DISK_EVERY\": 2,"
                + " \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": \"2s\", \"SLEEP_THREAD_TIME\": \"500ms\"}" + moreParams + "}");
        List<String> args = new ArrayList<>(List.of("test", "--steps", String.valueOf(STEPS)));
        args.addAll(List.of(extraArgs));
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir).params(params)
                .application(new Application(HeatBlocksRank.class.getName(), Optional.empty())).arguments(args)
                .restarts(1).backoff(Duration.ofMillis(100)).grace(Duration.ofSeconds(10)).settle(Duration.ofSeconds(5))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8)).err(new PrintStream(err, true, StandardCharsets.UTF_8));
        JobProcesses.SMALL_JVM.forEach(b::jvmOption);
        customize.accept(b);
        return Launcher.run(b.build());
    }

    private String log() {
        return err.toString(StandardCharsets.UTF_8) + "\n--- stdout ---\n" + out.toString(StandardCharsets.UTF_8);
    }

    private String result() {
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("result sha256=")).reduce((a, b) -> b)
                .orElse("(no result line)");
    }

    private void assertOnlineRecoveryFrom(LaunchResult r, String source, int spares) {
        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(1);
        assertThat(r.events("recovered")).as(log()).singleElement().satisfies(e -> assertThat(e.fields())
                .containsEntry("source", source).containsEntry("spares", spares));
        assertThat(result()).as(log()).isEqualTo("result sha256=" + reference);
    }

    /** Waits until the ranks have written their first disk line (the loop runs), then 1.5 s more (about 75 paced steps). */
    private void midRun() {
        awaitDiskLine(dir.resolve("ckpt").resolve("rank-00003"), 1500);
    }

    /** Waits until {@code series} holds a committed disk line, then {@code thenMillis} more. */
    private static void awaitDiskLine(Path series, long thenMillis) {
        try {
            for (int i = 0; i < 3000 && !(Files.isDirectory(series) && Files.list(series).anyMatch(f -> f.toString().endsWith(".commit")));
                    i++) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            TimeUnit.MILLISECONDS.sleep(thenMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void failFault_oneRankKilled_recoveredOnlineFromPartnerMemory_bitIdentical() throws Exception {
        LaunchResult r = launch(4, b -> b.kill(new Fault.KillAtIteration(1, 77)));
        assertOnlineRecoveryFrom(r, "memory", 0);
        assertThat(r.events(TimelineEvent.RANK_STARTED)).as("no rank was started again").hasSize(4);
        savesReportedWithTheirCost(r);
    }

    /** Rank 0 reported every snapshot it committed, with a blocking time and bytes; its disk lines with their files' bytes. */
    private void savesReportedWithTheirCost(LaunchResult r) {
        java.util.regex.Matcher committed = java.util.regex.Pattern.compile("\\[0] .*?(\\d+) snapshots committed").matcher(log());
        assertThat(committed.find()).as(log()).isTrue();
        List<TimelineEvent> memory = r.events("saved").filter(e -> e.rank() == 0 && "memory".equals(e.fields().get("level"))).toList();
        assertThat(memory.stream().mapToLong(e -> e.longField("saves").orElse(1)).sum()).as("in-memory snapshots of rank 0")
                .isEqualTo(Long.parseLong(committed.group(1)));
        assertThat(memory).allSatisfy(e -> {
            assertThat(e.doubleField("blocking_s").orElse(-1)).isGreaterThan(0);
            assertThat(e.longField("bytes").orElse(-1)).isPositive();
        });
        assertThat(r.events("saved").filter(e -> e.rank() == 0 && "disk".equals(e.fields().get("level")))).isNotEmpty()
                .allSatisfy(e -> assertThat(e.longField("bytes").orElse(-1)).as("the line's file").isPositive());
    }

    @Test
    void xorGroup_oneRankKilled_rebuiltFromParityOnline_bitIdentical() throws Exception {
        moreParams = ", \"MEMORY_SCHEME\": \"xor\", \"ERASURE_K\": 2"; // one group of three: {0, 1, 2}
        LaunchResult r = launch(3, b -> b.kill(new Fault.KillAtIteration(1, 77)));
        assertOnlineRecoveryFrom(r, "memory", 0);
        assertThat(log()).contains("level 'xor': rebuilt the snapshots of world ranks [1]");
    }

    /**
     * Node-local stores ({@code DISK_PER_HOST}, three fake hosts, one rank each, one XOR group): the whole job is killed
     * mid-run and host-1's store deleted (a replaced disk) before the launcher relaunches it; the relaunch rebuilds rank
     * 1's disk line from the parity in the other hosts' lines, fetched over the group, and ends bit-identical.
     */
    @Test
    void nodeLocalStores_jobKilledAndAHostsStoreDeleted_relaunchRebuildsItsLineFromTheGroup_bitIdentical() throws Exception {
        moreParams = ", \"MEMORY_SCHEME\": \"xor\", \"ERASURE_K\": 2, \"DISK_PER_HOST\": true";
        Path host1 = dir.resolve("ckpt").resolve("host-1");
        CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> {
            awaitDiskLine(host1.resolve("rank-00001"), 500);
            for (int rank = 0; rank < 3; rank++) {
                JobProcesses.rankOf(jobId, rank).ifPresent(p -> JobProcesses.signal(p.pid(), "KILL"));
            }
            try {
                for (int rank = 0; rank < 3; rank++) { // dead before the store goes: nothing writes to it any more
                    JobProcesses.rankOf(jobId, rank).ifPresent(p -> p.onExit().join());
                }
                io.ironloop.Folders.deleteTree(host1);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        LaunchResult r = launch(3, b -> b.fakeHosts(3), "--pace-ms", "10");
        killer.get(10, TimeUnit.SECONDS);
        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isEqualTo(1);
        assertThat(log()).contains("fetched the disk line files of iteration")
                .containsPattern("holds block \\d+ in \\S+/host-1: rebuilt world ranks \\[1]' line\\(s\\) of iteration \\d+ from the xor parity of group \\[0, 1, 2]");
        assertThat(result()).as(log()).isEqualTo("result sha256=" + reference);
    }

    @Test
    void spare_adoptsTheLostRanksBlocks_bitIdentical() throws Exception {
        LaunchResult r = launch(3, b -> b.spares(1).kill(new Fault.KillAtIteration(0, 61)));
        assertOnlineRecoveryFrom(r, "memory", 1);
    }

    @Test
    void rankAndItsPartnerKilledTogether_rollBackToTheDiskLine_bitIdentical() throws Exception {
        CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> {
            // pairwise over 4 ranks: 1 and 3 hold each other's copies; kill both at once, mid-run
            midRun();
            long a = JobProcesses.rankOf(jobId, 1).orElseThrow().pid();
            long b = JobProcesses.rankOf(jobId, 3).orElseThrow().pid();
            JobProcesses.signal(a, "KILL");
            JobProcesses.signal(b, "KILL");
        });
        LaunchResult r = launch(4, b -> { }, "--pace-ms", "20");
        killer.get(10, TimeUnit.SECONDS);
        assertOnlineRecoveryFrom(r, "disk", 0);
    }

    @Test
    void twoRanksThatAreNotPartnersKilledTogether_recoveredOnlineFromMemory_bitIdentical() throws Exception {
        CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> {
            // pairwise over 4: 0 and 2 hold each other's copies, 1 and 3 theirs; 0 (the leader) and 1 die, both copies live on
            midRun();
            long a = JobProcesses.rankOf(jobId, 0).orElseThrow().pid();
            long b = JobProcesses.rankOf(jobId, 1).orElseThrow().pid();
            JobProcesses.signal(a, "KILL");
            JobProcesses.signal(b, "KILL");
        });
        LaunchResult r = launch(4, b -> { }, "--pace-ms", "20");
        killer.get(10, TimeUnit.SECONDS);
        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isBetween(1, 2);
        assertThat(r.events("recovered")).as(log()).allSatisfy(e -> assertThat(e.fields()).containsEntry("source", "memory"));
        assertThat(result()).as(log()).isEqualTo("result sha256=" + reference);
    }

    @Test
    void sigstoppedRank_fencedAndKilled_othersRecoverOnline_bitIdentical() throws Exception {
        CompletableFuture<Void> stopper = CompletableFuture.runAsync(() -> {
            midRun();
            JobProcesses.signal(JobProcesses.rankOf(jobId, 2).orElseThrow().pid(), "STOP");
        });
        LaunchResult r = launch(4, b -> { }, "--pace-ms", "20");
        stopper.get(10, TimeUnit.SECONDS);
        assertOnlineRecoveryFrom(r, "memory", 0);
    }

    /**
     * A stopped rank, declared failed and fenced while the survivors recovered without it, is resumed (SIGCONT)
     * mid-run: whatever it had in flight — a halo, its partner copy — belongs to a group that no longer exists, so
     * the survivors drop it, and it learns it was fenced and leaves. Then another rank is killed: the survivors
     * recover from the partner copies made after the resumed rank's traffic, and the result is still bit-identical —
     * the resumed rank corrupted no snapshot.
     */
    @Test
    void resumedFencedRank_corruptsNoSnapshot_aLaterLossStillRecoversBitIdentical() throws Exception {
        CountDownLatch shrunk = new CountDownLatch(1);
        CompletableFuture<Void> faults = CompletableFuture.runAsync(() -> {
            midRun();
            long stopped = JobProcesses.rankOf(jobId, 2).orElseThrow().pid();
            JobProcesses.signal(stopped, "STOP");
            try {
                assertThat(shrunk.await(30, TimeUnit.SECONDS)).as("the survivors shrank the group").isTrue();
                TimeUnit.MILLISECONDS.sleep(300);
                JobProcesses.signal(stopped, "CONT");
                TimeUnit.MILLISECONDS.sleep(1000);
                JobProcesses.signal(JobProcesses.rankOf(jobId, 1).orElseThrow().pid(), "KILL");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        LaunchResult r = launch(4, b -> b.outputListener((attempt, rank, stderr, line) -> {
            if (line.contains("the group shrank")) {
                shrunk.countDown();
            }
        }), "--pace-ms", "50");
        faults.get(10, TimeUnit.SECONDS);
        assertThat(r.exitStatus()).as(log()).isZero();
        assertThat(r.relaunches()).as(log()).isZero();
        assertThat(r.onlineRecoveries()).as(log()).isEqualTo(2);
        assertThat(log()).as("the resumed rank learnt it was fenced").contains("was declared failed by world rank");
        assertThat(result()).as(log()).isEqualTo("result sha256=" + reference);
    }

    /**
     * A rank kills itself with a real SIGKILL at a seeded moment ({@code --die-at}): mid-iteration, right after its
     * snapshot's capture, mid-copy (milliseconds into the background copy to its partner), right after a
     * handshake agreed (while the levels commit) — and, with a second rank dying during the first recovery,
     * mid-recovery. Every case recovers inside the job and ends bit-identical.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15})
    void seededSelfKill_atAnyMomentOfTheLoop_recoveredOnline_bitIdentical(long seed) throws Exception {
        java.util.Random random = new java.util.Random(seed);
        String[] phases = {"iteration", "snapshot", "snapshot", "handshake", "recovery"};
        String phase = phases[(int) (seed % phases.length)]; // every phase once over the five seeds
        int victim = random.nextInt(4);
        long snapshot = 5 * (6 + random.nextInt(30)); // SNAPSHOT_EVERY 5, between steps 30 and 175
        List<String> deaths = new ArrayList<>();
        switch (phase) {
            case "iteration" -> deaths.add(victim + ":iteration@" + (snapshot + 1 + random.nextInt(4)) + "+" + random.nextInt(15));
            case "snapshot" -> deaths.add(victim + ":snapshot@" + snapshot + "+" + (seed % 2 == 0 ? 0 : 1 + random.nextInt(10)));
            case "handshake" -> deaths.add(victim + ":handshake@" + snapshot);
            default -> {
                deaths.add(victim + ":iteration@" + snapshot);
                // pairwise over 4: r's copy is on r + 2; the second victim keeps the first one's copy alive
                int second = (victim + 1) % 4;
                deaths.add(second + ":recovery@1+" + random.nextInt(5));
            }
        }
        List<String> args = new ArrayList<>(List.of("--pace-ms", "15"));
        deaths.forEach(d -> args.addAll(List.of("--die-at", d)));
        LaunchResult r = launch(4, b -> { }, args.toArray(String[]::new));
        String context = "deaths " + deaths + "\n" + log();
        assertThat(r.exitStatus()).as(context).isZero();
        assertThat(r.relaunches()).as(context).isZero();
        assertThat(r.onlineRecoveries()).as(context).isBetween(1, 2);
        assertThat(log()).as(context).contains("rehearsed death: world rank " + victim);
        assertThat(result()).as(context).isEqualTo("result sha256=" + reference);
    }
}
