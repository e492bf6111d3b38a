package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.launcher.Fault;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.examples.fwi.FwiConfig;
import io.ironloop.examples.fwi.FwiInversion;
import io.ironloop.examples.fwi.FwiListener;
import io.ironloop.examples.fwi.FwiProblem;
import io.ironloop.examples.quickstart.Quickstart;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code ironloop demo}: real rank JVMs under the launcher for the verdict, and its refusals without any. The fwi
 * runs on 2 ranks at the test size share one failure-free reference: the kill test runs first and makes it (a
 * separate complete run, which it checks), the default-plan tests then find it in the shared cache.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoCommandTest {
    private static final String VERDICT = "bit-identical to failure-free run: yes \\(reference sha256=([0-9a-f]{64})\\)";

    @TempDir
    Path dir;

    /** The reference result, computed once for the fwi runs on 2 ranks at the test size (by the first of them). */
    @TempDir
    static Path sharedCache;

    private static final AtomicLong burned = new AtomicLong();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int demo(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "demo";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), all);
    }

    private List<String> outLines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void demo_fwiTestSizeWithKillMinus9_timelineAndYesVerdictAndCachedReference() throws Exception {
        Path cache = sharedCache;

        int status = demo("fwi", "--size", "test", "--ranks", "2", "--fail", "1@3", "--cache-dir", cache.toString());

        assertThat(status).as(err()).isZero();
        List<String> lines = outLines();
        assertThat(lines).as(err()).hasSize(3);
        FwiInversion reference = new FwiInversion(new FwiProblem(FwiConfig.test()));
        reference.run(FwiListener.NONE);
        assertThat(lines.get(0)).as("the fwi ranks recover by relaunch, not online").isEqualTo("relaunches=1 online_recoveries=0");
        assertThat(lines.get(1)).isEqualTo(reference.resultLine());
        assertThat(lines.get(2)).matches(VERDICT).contains(reference.resultDigest());
        assertThat(err()).contains("demo: timeline of the supervised run", "injected SIGKILL into rank 1 (--fail 1@3, at iteration 3)",
                "rank 1 exited with status 137 (SIGKILL)", "restarted the job (attempt 1)", "resumed at iteration",
                "demo: reference: a separate complete failure-free run");
        try (Stream<Path> files = Files.list(cache)) {
            assertThat(files.toList()).singleElement().satisfies(f -> assertThat(Files.readString(f)).contains(reference.resultDigest()));
        }
    }

    /** How the machine is made to differ from the one the demo was tuned on. */
    enum Machine {
        /**
         * Fast: the test size's per-iteration work is about twenty times cheaper than the demo size's (48 x 32
         * cells and 6 shots against 160 x 80 and 16), so the whole inversion takes about a second, far less
         * than the 20 s after which the demo's former timed preemption fired.
         */
        FAST,
        /** Loaded: as many CPU-burning threads as cores compete with the ranks for the whole run. */
        LOADED
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    @Order(2)
    void demo_defaultFaultPlan_everyFaultFiresOnAFastOrLoadedMachine(Machine machine) throws Exception {
        List<Thread> burners = new ArrayList<>();
        AtomicBoolean burning = new AtomicBoolean(true);
        if (machine == Machine.LOADED) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                Thread t = new Thread(() -> {
                    long x = 0;
                    while (burning.get()) {
                        x += System.nanoTime() % 7;
                    }
                    burned.addAndGet(x);
                }, "cpu-burner-" + i);
                t.setDaemon(true);
                t.start();
                burners.add(t);
            }
        }
        int status;
        try {
            status = demo("fwi", "--size", "test", "--ranks", "2", "--cache-dir", sharedCache.toString());
        } finally {
            burning.set(false);
            for (Thread t : burners) {
                t.join();
            }
        }

        assertThat(status).as(err()).isZero();
        assertThat(err()).as("the default plan is scheduled by progress").contains("demo: faults: --fail 1@4", "--preempt 1@it2")
                .contains("injected SIGTERM into rank 1 (--preempt 1@it2, at iteration 2)",
                        "injected SIGKILL into rank 1 (--fail 1@4, at iteration 4)")
                .doesNotContain("never fired");
        assertThat(outLines().get(0)).as("one relaunch per fault").isEqualTo("relaunches=2 online_recoveries=0");
        assertThat(outLines().get(2)).matches(VERDICT);
    }

    @Test
    void defaultFaultPlans_neverDependOnWallClockTime_andStayWithinTheRun() {
        for (DemoApp app : DemoApp.values()) {
            for (String size : List.of("test", "demo")) {
                for (int n = 1; n <= 8; n++) {
                    int ranks = n;
                    List<Fault> faults = new ArrayList<>();
                    for (String f : app.defaultFails(ranks, size)) {
                        faults.addAll(Fault.parseKills(f));
                    }
                    for (String p : app.defaultPreempts(ranks, size)) {
                        faults.addAll(Fault.parsePreemptions(p));
                    }
                    String about = app + " " + size + " on " + ranks + " ranks: " + faults;
                    int expected = blockApp(app) ? 1 : 2; // a block loop's scenario is one loss, recovered inside the job
                    assertThat(faults).as(about).hasSize(expected).allSatisfy(f -> {
                        assertThat(f).as(about).isInstanceOf(Fault.AtIteration.class);
                        assertThat(f.rank()).as(about).isBetween(0, ranks - 1);
                    });
                    assertThat(faults.stream().map(f -> ((Fault.AtIteration) f).iteration()).distinct()).as(about)
                            .hasSize(expected).allSatisfy(i -> assertThat(i).isBetween(1L, lastIteration(app, size)));
                }
            }
        }
    }

    private static boolean blockApp(DemoApp app) {
        return app == DemoApp.HEAT || app == DemoApp.LBM || app == DemoApp.JACOBI || app == DemoApp.CIRCULATION || app == DemoApp.SWING;
    }

    /** The iterations every complete run reports at least. */
    private static long lastIteration(DemoApp app, String size) {
        if (app == DemoApp.HEAT || app == DemoApp.JACOBI) {
            return io.ironloop.examples.blocks.heat.HeatBlocks.preset(size, 0).steps() - 1;
        }
        if (app == DemoApp.CIRCULATION) {
            return io.ironloop.examples.circulation.MatrixPower.preset(size, 0).steps() - 1;
        }
        if (app == DemoApp.SWING) {
            return io.ironloop.examples.swing.GasStorage.preset(size, 0).steps() - 1;
        }
        if (app == DemoApp.LBM) {
            return io.ironloop.examples.blocks.lbm.CylinderFlow.preset(size, 0).steps() - 1;
        }
        if (app == DemoApp.FWI) {
            // a round per accepted iteration at least, and one before the first
            return (size.equals("test") ? FwiConfig.test() : FwiConfig.demo()).maxIterations() + 1L;
        }
        if (app.onDevices()) {
            return io.ironloop.examples.device.DeviceApp.named(app.commandName(), size).iterations() - 1;
        }
        return Long.parseLong(app.arguments(size).get(1));
    }

    @Test
    void demo_summaOnTwoJavaDevices_killedTwice_restartedOnOne_yesVerdict() {
        int status = demo("summa", "--size", "test", "--devices", "2", "--restart-devices", "1", "--no-cache");

        assertThat(status).as(err()).isZero();
        assertThat(err()).contains("--fail 0@7 --fail 0@16 -- io.ironloop.examples.device.DeviceRank summa test --device java --devices 2 --restart-devices 1",
                "of a malleable application (only unified arrays registered): data re-split over 1 java device"
                        + " (checkpointed on 2 java devices)",
                "re-split over 1 java device (checkpointed on 1 java device)")
                .containsPattern("restart at iteration \\d+ of a malleable"); // the newest line durable when the kill came
        assertThat(outLines()).as(err()).hasSize(3);
        assertThat(outLines().get(0)).isEqualTo("relaunches=2 online_recoveries=0");
        assertThat(outLines().get(2)).matches(VERDICT);
    }

    @Test
    void demo_deviceOptionsOnARankApp_orRanksOnADeviceApp_usageError() {
        assertThat(demo("heat", "--devices", "2")).isEqualTo(Main.USAGE);
        assertThat(err()).contains("--device, --devices and --restart-devices are for the device apps (spmv, floyd, summa, shallow-water), not heat");
        assertThat(demo("floyd", "--ranks", "2")).isEqualTo(Main.USAGE);
        assertThat(err()).contains("floyd runs in one process on its devices: use --devices, not --ranks 2");
    }

    @Test
    void demoAppHelp_namesTheMainClassAndItsArguments() {
        assertThat(demo("swing", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("APP swing:", "main class: io.ironloop.examples.swing.GasStorageSkeletonRank",
                "arguments: [test|demo|bench (heat only)] [--steps N]", "by hand: ironloop run -n N --params FILE -- io.ironloop.examples.swing.GasStorageSkeletonRank demo");
    }

    @Test
    void demo_restartRanksBeyondTheParts_orOnADeviceApp_usageError() {
        assertThat(demo("circulation", "--restart-ranks", "9")).isEqualTo(Main.USAGE);
        assertThat(err()).contains("circulation runs on at most 8 ranks (its parts), not 9");
        assertThat(demo("summa", "--restart-ranks", "2")).isEqualTo(Main.USAGE);
        assertThat(err()).contains("--restart-ranks is for the rank apps; summa takes --restart-devices");
    }

    @Test
    void demo_quickstartTestSizeWithKillMinus9_yesVerdict() {
        int status = demo("quickstart", "--size", "test", "--ranks", "2", "--fail", "1@5", "--no-cache", "--cache-dir",
                dir.resolve("cache").toString());

        assertThat(status).as(err()).isZero();
        assertThat(outLines()).as(err()).hasSize(3);
        assertThat(outLines().get(0)).isEqualTo("relaunches=1 online_recoveries=0");
        assertThat(outLines().get(1)).isEqualTo(Quickstart.simulate(2, 2000, 12));
        assertThat(outLines().get(2)).matches(VERDICT);
        assertThat(dir.resolve("cache")).as("--no-cache neither reads nor writes the cache").doesNotExist();
    }

    @Test
    void demo_paramsNamingNonEmptyFolder_refusesAndDeletesNothing() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("ft"));
        Path kept = Files.writeString(folder.resolve("line-7.ilc"), "precious");
        Path params = Files.writeString(dir.resolve("p.json"), "{\"FT_FOLDER\": \"" + folder + "\"}");

        int status = demo("fwi", "--params", params.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err()).contains("FT_FOLDER " + folder, "is not empty", "never deletes");
        assertThat(kept).hasContent("precious");
        assertThat(outLines()).isEmpty();
    }

    @Test
    void demo_paramsWithUnknownKeyOrBadValue_usageErrorNamingIt() throws Exception {
        Path unknown = Files.writeString(dir.resolve("u.json"), "{\"TRIGGER_SIGNALS_ON\": true}");
        assertThat(demo("--params", unknown.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown parameter 'TRIGGER_SIGNALS_ON'");

        err.reset();
        Path bad = Files.writeString(dir.resolve("b.json"), "{\"WORKLOAD_SCHEDULER\": \"FIFO\"}");
        assertThat(demo("--params", bad.toString())).isEqualTo(2);
        assertThat(err()).contains("WORKLOAD_SCHEDULER", "FIFO");
    }

    @Test
    void demo_unknownAppOrSize_usageError() {
        assertThat(demo("nbody")).isEqualTo(2);
        assertThat(err()).contains("unknown app 'nbody': use " + DemoApp.names());
        assertThat(DemoApp.names()).startsWith("fwi, quickstart, heat").contains("circulation", "swing", "shallow-water");
        assertThat(demo("fwi", "--size", "huge")).isEqualTo(2);
        assertThat(err()).contains("--size must be test or demo");
    }

    @Test
    void referenceCache_keyFollowsDescriptionAndBuild_storedResultFound() throws Exception {
        Path jar = Files.writeString(dir.resolve("app.jar"), "classes");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("A.class"), "a");
        List<String> cp = List.of(jar.toString(), classes.toString());
        String key = DemoReferenceCache.key(List.of("app=FWI", "ranks=4"), cp);

        assertThat(DemoReferenceCache.key(List.of("app=FWI", "ranks=4"), cp)).isEqualTo(key);
        assertThat(DemoReferenceCache.key(List.of("app=FWI", "ranks=3"), cp)).isNotEqualTo(key);
        Files.setLastModifiedTime(classes.resolve("A.class"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        assertThat(DemoReferenceCache.key(List.of("app=FWI", "ranks=4"), cp)).as("a rebuilt class").isNotEqualTo(key);

        DemoReferenceCache cache = new DemoReferenceCache(dir.resolve("cache"));
        String sha = "ab".repeat(32);
        assertThat(cache.find(key)).isEmpty();
        cache.store(key, sha, "test");
        assertThat(cache.find(key)).contains(sha);
    }

    @Test
    void timeline_routineEventsHidden_recoveryEventsInWords() {
        Instant t = Instant.parse("2026-01-01T00:00:05Z");
        TimelineEvent skipped = new TimelineEvent(t, TimelineEvent.Source.RANK, 1, 0, 42, "tasks-skipped", Map.of("count", 4));
        TimelineEvent iteration = new TimelineEvent(t, TimelineEvent.Source.RANK, 1, 0, 42, "iteration", Map.of("iteration", 3));
        TimelineEvent restored = new TimelineEvent(t, TimelineEvent.Source.RANK, 1, 2, 43, "restored", Map.of("iteration", 3));

        assertThat(DemoTimeline.line(Instant.parse("2026-01-01T00:00:00Z"), skipped))
                .hasValueSatisfying(l -> assertThat(l).contains("5.000s", "pid 42", "rank 0", "skipped 4 tasks finished before the restart"));
        assertThat(DemoTimeline.sentence(iteration)).isEmpty();
        assertThat(DemoTimeline.sentence(restored)).contains("resumed at iteration 3");
        assertThat(DemoCommand.shown("[main] WARN io.ironloop.core.CheckpointEngine - checkpoint x cannot be restored"))
                .contains("WARN io.ironloop.core.CheckpointEngine - checkpoint x cannot be restored");
        assertThat(DemoCommand.shown("[jgroups-3,job] WARN org.jgroups.protocols.pbcast.GMS - merge")).isEmpty();
        assertThat(DemoCommand.shown("[main] WARN io.ironloop.runtime.Ironloop - rank 2: ranks [1] failed")).isEmpty();
        TimelineEvent trigger = new TimelineEvent(t, TimelineEvent.Source.RANK, 0, 2, 44, "trigger",
                Map.of("cause", "SignalReceived[signal=TERM, exitStatus=143, at=2026-01-01T00:00:05Z]"));
        assertThat(DemoTimeline.sentence(trigger)).contains("received SIGTERM: saving its published state");
        assertThat(DemoCommand.shown("\tat io.ironloop.X.y(X.java:1)")).isEmpty();
    }

    @Test
    void timeline_onlineRecovery_detectShrinkRestoreRebalanceContinueWithDurations() {
        Instant t = Instant.parse("2026-01-01T00:00:05Z");
        TimelineEvent lost = new TimelineEvent(t, TimelineEvent.Source.SUPERVISOR, 0, 1, 41, TimelineEvent.RANK_LOST,
                Map.of("status", 137, "iteration", 5L, "injected", true));
        TimelineEvent shrunk = new TimelineEvent(t, TimelineEvent.Source.RANK, 0, 0, 40, "shrunk",
                Map.of("lost", List.of(1), "size", 3, "shrink_s", 0.0421));
        TimelineEvent recovered = new TimelineEvent(t, TimelineEvent.Source.RANK, 0, 0, 40, "recovered",
                Map.of("lost", List.of(1), "iteration", 4L, "source", "memory", "spares", 1, "detect_s", 1.2,
                        "shrink_s", 0.0421, "restore_s", 0.25, "rebalance_s", 0.003));
        TimelineEvent impossible = new TimelineEvent(t, TimelineEvent.Source.RANK, 0, 0, 40, "recovery-impossible",
                Map.of("lost", List.of(1, 3), "reason", "rank 1 and its partner 3 were lost"));
        TimelineEvent protection = new TimelineEvent(t, TimelineEvent.Source.RANK, 0, 2, 42, "protection", Map.of("online", true));

        assertThat(DemoTimeline.sentence(lost)).hasValueSatisfying(s -> assertThat(s)
                .contains("lost rank 1", "iteration 5", "the others keep running and recover online"));
        assertThat(DemoTimeline.sentence(shrunk)).contains("shrank the group without rank [1] to 3 ranks in 0.042 s");
        assertThat(DemoTimeline.sentence(recovered)).contains("recovered online from the loss of rank [1]: detect 1.200 s"
                + " → shrink 0.042 s → restore from partner memory 0.250 s → rebalance 0.003 s (1 spare adopted the work)"
                + " → continue at iteration 4");
        assertThat(DemoTimeline.sentence(impossible)).hasValueSatisfying(s -> assertThat(s)
                .contains("ranks [1, 3]", "its partner 3", "relaunched from disk"));
        assertThat(DemoTimeline.sentence(protection)).isEmpty();
    }

    @Test
    void demo_negativeSparesOrTooManyFakeHosts_usageError() {
        assertThat(demo("fwi", "--spares", "-1")).isEqualTo(2);
        assertThat(err()).contains("--spares must not be negative, got -1");
        err.reset();
        assertThat(demo("fwi", "--ranks", "2", "--spares", "1", "--fake-hosts", "4")).isEqualTo(2);
        assertThat(err()).contains("--fake-hosts must be between 1 and the 3 rank JVMs, got 4");
        assertThat(outLines()).isEmpty();
    }
}
