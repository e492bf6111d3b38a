package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.launch.FwiJobs.Run;
import io.ironloop.core.LineInfo;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The distributed fault-tolerant FWI ({@code FwiRank}, test size) on real rank JVMs under the launcher: real
 * SIGKILL and SIGTERM, supervised or manual restarts, damaged checkpoints, changed settings, another number of
 * ranks — and every result bit-identical to {@code FwiMain}'s failure-free single-process run.
 */
class FwiRecoveryTest {
    private static final String PACE = "--pace-ms";

    @TempDir
    Path dir;

    private FwiJobs jobs;

    @BeforeEach
    void jobs() {
        jobs = new FwiJobs(dir);
    }

    @AfterEach
    void killLeftovers() {
        jobs.close();
    }

    private static String reference() {
        return FwiJobs.fwiMainTestResult();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(WorkloadScheduler.class)
    void killMinus9_seededRandomRankAndIteration_restartBitIdentical(WorkloadScheduler scheduler) throws IOException {
        long seed = scheduler == WorkloadScheduler.DS ? 20261121L : 4242L;
        Random random = new Random(seed);
        int rank = random.nextInt(4);
        long iteration = 1 + random.nextInt(5);
        String fault = "seed " + seed + ": --fail " + rank + "@" + iteration;

        Run r = jobs.run(4, jobs.params(scheduler, false), b -> b.restarts(2).kill(new Fault.KillAtIteration(rank, iteration)), "test");

        assertThat(r.status()).as(fault + "\n" + r.story()).isZero();
        assertThat(r.result().attempts()).as(fault).isEqualTo(2);
        assertThat(r.events(TimelineEvent.FAULT_INJECTED)).singleElement().satisfies(e -> {
            assertThat(e.rank()).isEqualTo(rank);
            assertThat(e.fields()).containsEntry("signal", "SIGKILL").containsEntry("iteration", iteration);
        });
        assertThat(r.events(TimelineEvent.RANK_EXITED).stream().filter(e -> e.attempt() == 0 && e.rank() == rank))
                .singleElement().satisfies(e -> assertThat(e.fields()).containsEntry("status", 137));
        assertThat(r.events("restored")).as(fault + ": every rank resumes from the newest committed global line")
                .allSatisfy(e -> assertThat(e.longField("iteration").orElseThrow()).isBetween(iteration - 1, iteration));
        assertThat(r.resultLine()).as(fault).contains(reference());
    }

    @Test
    void killMinus9_leader_survivorsSaveAndRestartBitIdentical() throws IOException {
        Run r = jobs.run(3, jobs.params(WorkloadScheduler.DS, false), b -> b.restarts(2).kill(new Fault.KillAtIteration(0, 3)), "test");

        assertThat(r.status()).as(r.story()).isZero();
        assertThat(r.events(TimelineEvent.RANK_EXITED).stream().filter(e -> e.attempt() == 0 && e.rank() == 0))
                .singleElement().satisfies(e -> assertThat(e.fields()).containsEntry("status", 137));
        assertThat(r.events("detected").stream().filter(e -> e.attempt() == 0).map(TimelineEvent::rank))
                .as("both survivors detect the leader's death").containsExactlyInAnyOrder(1, 2);
        assertThat(r.events("restored")).isNotEmpty();
        assertThat(r.resultLine()).contains(reference());
    }

    /** SIGTERM mid-round on 4 ranks, then a restart on {@code restartRanks} ranks that skips every shot on disk. */
    @ParameterizedTest(name = "restart on {0} ranks")
    @ValueSource(ints = {4, 3})
    void sigtermMidRound_finishedShotsSaved_restartSkipsExactlyThemBitIdentical(int restartRanks) throws IOException {
        Path params = jobs.params(WorkloadScheduler.DS, true);
        int victim = restartRanks == 4 ? 1 : 3;
        int expected = 0;
        long round = -1;
        Run first = null;
        // Rank 0 is slow (800 ms a shot, two shots a round), so the others finish their shots early in every round. The
        // victim gets SIGTERM a moment after it entered round 1 (its "iteration 1"): mid-round, after its own shots,
        // however long the JVMs took to start. Should its shots take longer than that on a loaded machine (none saved),
        // the job is rehearsed again with a later signal.
        for (long delayMs = 700; delayMs <= 1300 && expected == 0; delayMs += 600) {
            jobs.clearFolder();
            long delay = delayMs;
            first = jobs.run(4, params, b -> b.eventListener(e -> {
                if (e.attempt() == 0 && e.rank() == victim && "iteration".equals(e.type()) && e.longField("iteration").orElse(-1) == 1) {
                    CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS).execute(() -> JobProcesses.signal(e.pid(), "TERM"));
                }
            }), "test", PACE, "50", "--slow", "0:800");
            if (first.status() != 143) {
                continue;
            }
            round = jobs.savedRound();
            expected = jobs.shotsSaved(round);
        }
        assertThat(first.status()).as(first.story()).isEqualTo(143);
        assertThat(expected).as("shots of the open round saved by the ranks\n" + first.story()).isPositive();
        assertThat(first.events("trigger").stream().map(TimelineEvent::rank)).as("the preempted rank's signal trigger").contains(victim);
        assertThat(first.events("saved").stream().filter(e -> e.rank() == victim && "local".equals(e.fields().get("level"))))
                .as("the preempted rank saved its finished shots").isNotEmpty();

        Run restart = jobs.run(restartRanks, params, b -> { }, "test");

        long skipped = expected;
        assertThat(restart.status()).as(restart.story()).isZero();
        assertThat(restart.events("tasks-skipped")).as("skipped shots of round " + round).singleElement()
                .satisfies(e -> assertThat(e.longField("count").orElseThrow()).isEqualTo(skipped));
        assertThat(restart.err()).contains("round " + round + ": skipping " + expected + " of 6 shots finished before the restart");
        assertThat(restart.resultLine()).contains(reference());
    }

    /**
     * A spot-instance notice from a fake AWS metadata endpoint (IMDSv2), with a termination time 5 s ahead: every
     * rank saves its published local state durably before it; at that time the whole job is reclaimed (SIGKILL to
     * every rank), and a restart from the folder ends bit-identical.
     */
    @Test
    void preemptionNotice_fiveSecondDeadline_localStateDurableBeforeItThenRestartBitIdentical() throws Exception {
        AtomicReference<Instant> termination = new AtomicReference<>();
        HttpServer metadata = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        metadata.createContext("/latest/api/token", ex -> reply(ex, 200, "token"));
        metadata.createContext("/latest/meta-data/spot/instance-action", ex -> {
            Instant t = termination.get();
            reply(ex, t == null ? 404 : 200, t == null ? "" : "{\"action\": \"terminate\", \"time\": \"" + t + "\"}");
        });
        metadata.start();
        ScheduledExecutorService cloud = Executors.newSingleThreadScheduledExecutor();
        try {
            Path params = jobs.params("notice.json", "{\"FT_FOLDER\": \"" + FwiJobs.FOLDER + "\", \"CHECKPOINTING_GLOBAL_ITERATION\": 1,"
                    + " \"PREEMPTION_NOTICE\": \"AWS\", \"PREEMPTION_POLL_INTERVAL\": 0.2, \"PREEMPTION_MARGIN\": 1,"
                    + " \"PREEMPTION_AWS_URL\": \"http://127.0.0.1:" + metadata.getAddress().getPort()
                    + "/latest/meta-data/spot/instance-action\"}");
            // mid-run (rank 0's slow shots make the job last over 20 s; 2 s after its first committed line, however long the
            // JVMs took to start on a loaded machine): the provider announces the reclamation, then reclaims at that time
            cloud.execute(() -> {
                if (!awaitFirstCommit(jobs.folder(), Duration.ofSeconds(60))) {
                    return; // the assertions below name what happened
                }
                sleep(Duration.ofSeconds(2));
                Instant t = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
                termination.set(t);
                cloud.schedule(() -> JobProcesses.killJob(jobs.currentJobId()), Duration.between(Instant.now(), t).toMillis(),
                        TimeUnit.MILLISECONDS);
            });

            Run first = jobs.run(4, params, b -> { }, "test", PACE, "50", "--slow", "0:1500");

            Instant deadline = termination.get();
            assertThat(deadline).as("the notice was posted before the job ended\n" + first.story()).isNotNull();
            assertThat(first.events("complete")).as("the job must still run when it is reclaimed\n" + first.story()).isEmpty();
            assertThat(first.status()).as(first.story()).isEqualTo(137);
            assertThat(first.events("trigger")).as(first.story()).hasSize(4)
                    .allSatisfy(e -> assertThat(e.fields()).containsEntry("deadline", deadline.minusSeconds(1).toString()));
            for (int rank = 0; rank < 4; rank++) {
                int r = rank;
                Instant noticed = first.events("trigger").stream().filter(e -> e.rank() == r).findFirst().orElseThrow().time();
                assertThat(first.events("saved").stream().filter(e -> e.rank() == r && "local".equals(e.fields().get("level")))
                        .map(TimelineEvent::time).filter(t -> !t.isBefore(noticed)))
                        .as("rank %d's local state durable after the notice and before the termination at %s\n%s", r, deadline, first.story())
                        .isNotEmpty().allSatisfy(t -> assertThat(t).isBefore(deadline));
            }
            termination.set(null);

            Run restart = jobs.run(4, params, b -> { }, "test");

            assertThat(restart.status()).as(restart.story()).isZero();
            assertThat(restart.events("restored")).isNotEmpty();
            assertThat(restart.resultLine()).contains(reference());
        } finally {
            cloud.shutdownNow();
            metadata.stop(0);
        }
    }

    /** Whether a commit record appeared under {@code folder} within {@code limit}. */
    private static boolean awaitFirstCommit(Path folder, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            if (Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.walk(folder)) {
                    if (files.anyMatch(f -> f.getFileName().toString().endsWith(".commit"))) {
                        return true;
                    }
                } catch (IOException | UncheckedIOException e) {
                    // a file vanished while walking (a temporary renamed): look again
                }
            }
            sleep(Duration.ofMillis(50));
        }
        return false;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void newestGlobalLineCorrupted_fallsBackOneLineBitIdentical() throws IOException {
        Path params = jobs.params(WorkloadScheduler.DS, false);
        Run first = jobs.run(2, params, b -> b.kill(new Fault.KillAtIteration(1, 4)), "test");
        assertThat(first.status()).as(first.story()).isEqualTo(137);
        LineInfo newest = jobs.newestGlobalLine();
        Path data = jobs.folder().resolve(newest.dataFile());
        long offset = flipByte(data, new Random(7));
        // rank 1 keeps a copy of the global lines: damage its line of that iteration too, or it would be restored
        for (Path copy : jobs.globalCopyDataFiles(newest.iteration())) {
            flipByte(copy, new Random(8));
        }

        Run restart = jobs.run(2, params, b -> { }, "test");

        assertThat(restart.status()).as(restart.story()).isZero();
        assertThat(restart.err()).as("byte " + offset + " of " + data).contains(newest.dataFile(), "falling back to the previous line");
        assertThat(restart.events("restored")).hasSize(2)
                .allSatisfy(e -> assertThat(e.longField("iteration").orElseThrow()).isEqualTo(newest.iteration() - 1));
        assertThat(restart.resultLine()).contains(reference());
    }

    @Test
    void settingsChanged_startsFreshWithMessageBitIdentical_thenAlreadyComplete() throws IOException {
        Path params = jobs.params(WorkloadScheduler.DS, false);
        Run other = jobs.run(2, params, b -> { }, "test", "--max-iterations", "2");
        assertThat(other.status()).as(other.story()).isZero();
        assertThat(other.resultLine()).isPresent().get().isNotEqualTo(reference());

        Run changed = jobs.run(2, params, b -> { }, "test");

        assertThat(changed.status()).as(changed.story()).isZero();
        assertThat(changed.err()).contains("fwi: the settings changed since the newest checkpoint", "starting fresh");
        assertThat(changed.events("settings-changed")).hasSize(1);
        assertThat(changed.events("restored")).isEmpty();
        assertThat(changed.resultLine()).contains(reference());

        Run again = jobs.run(2, params, b -> { }, "test");

        assertThat(again.status()).as(again.story()).isZero();
        assertThat(again.err()).contains("already complete");
        assertThat(again.events("iteration")).isEmpty();
        assertThat(again.resultLine()).contains(reference());
    }

    @Test
    void ctws_oneSlowRank_othersStealItsShotsBitIdentical() throws IOException {
        Run r = jobs.run(3, jobs.params(WorkloadScheduler.CTWS, false), b -> { }, "test", "--slow", "1:300");

        assertThat(r.status()).as(r.story()).isZero();
        assertThat(r.events("tasks-stolen")).as(r.story()).isNotEmpty()
                .anySatisfy(e -> assertThat(e.fields()).containsEntry("from", 1));
        assertThat(r.resultLine()).contains(reference());
    }

    @Test
    void listingTwoParameterFile_loadsAndRecoversBitIdentical() throws IOException {
        Path params = jobs.params("delia_param.json", """
                {

                "FT_FOLDER" : "./data",
                "CHECKPOINTING_GLOBAL_ITERATION": 1,
                "TRIGGER_SIGNAL" : true,
                "TRIGGER_HEARTBEAT_MONITORING": {

                "TIME_MAX_WAIT" : 20,
                "SLEEP_THREAD_TIME" : 1

                }
                }
                """);

        Run r = jobs.run(2, params, b -> b.restarts(1).kill(new Fault.KillAtIteration(1, 3)), "test");

        assertThat(r.status()).as(r.story()).isZero();
        assertThat(dir.resolve("data").resolve("global")).as("FT_FOLDER resolves against the launcher's directory").isDirectory();
        assertThat(r.events("restored")).isNotEmpty();
        assertThat(r.resultLine()).contains(reference());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"{\"CHECKPOINTING_GLOBAL_ITERATIONS\": 1}", "{\"CHECKPOINTING_GLOBAL_ITERATION\": \"often\"}"})
    void parameterFile_unknownKeyOrBadValue_clearErrorNamingTheKey(String json) throws IOException {
        Run r = jobs.run(1, jobs.params("bad.json", json), b -> { }, "test");

        assertThat(r.status()).isEqualTo(2);
        String line = r.err().lines().filter(l -> l.startsWith("[0] fwi: ")).findFirst().orElse(r.err());
        if (json.contains("ITERATIONS")) {
            assertThat(line).contains("unknown parameter 'CHECKPOINTING_GLOBAL_ITERATIONS'", "bad.json");
        } else {
            assertThat(line).contains("CHECKPOINTING_GLOBAL_ITERATION", "often", "bad.json");
        }
        assertThat(r.err()).doesNotContain("\tat ");
    }

    /** Flips one byte in the middle half of the file, at a seeded random offset; returns the offset. */
    private static long flipByte(Path file, Random random) throws IOException {
        long size = Files.size(file);
        long offset = size / 4 + (long) (random.nextDouble() * (size / 2));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) ~b.get(0));
            b.rewind();
            ch.write(b, offset);
            ch.force(true);
        }
        return offset;
    }
}
