package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.RestoredState;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.fwi.FwiMain;
import io.ironloop.examples.fwi.FwiRank;
import io.ironloop.runtime.Ironloop;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs {@link FwiRank} jobs under the launcher for end-to-end tests, in one test's directory, and inspects
 * what they left in the checkpoint folder. Every job it started is killed by PID on {@link #close()}.
 */
final class FwiJobs implements AutoCloseable {
    /** Small rank JVMs: the test size needs little heap, and C1 starts fast. */
    static final List<String> RANK_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");
    /** The checkpoint folder of the parameter files written by {@link #params}, relative to the test directory. */
    static final String FOLDER = "ft";

    private static String testReference;

    private final Path dir;
    private final List<String> jobIds = new java.util.concurrent.CopyOnWriteArrayList<>();

    FwiJobs(Path dir) {
        this.dir = dir;
    }

    /** {@link FwiMain}'s standard output for the test size: the failure-free single-process reference line. */
    static synchronized String fwiMainTestResult() {
        if (testReference == null) {
            PrintStream saved = System.out;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                FwiMain.main(new String[] {"test"});
            } finally {
                System.setOut(saved);
            }
            testReference = captured.toString(StandardCharsets.UTF_8).strip();
        }
        return testReference;
    }

    /**
     * Writes a parameter file: checkpoints in {@value #FOLDER}, a global line every iteration, heartbeat
     * monitoring (5 s / 1 s), the scheduler, and the signal trigger when asked.
     */
    Path params(WorkloadScheduler scheduler, boolean signals) throws IOException {
        return params("params.json", "{\"FT_FOLDER\": \"" + FOLDER + "\", \"CHECKPOINTING_GLOBAL_ITERATION\": 1, \"TRIGGER_SIGNAL\": "
                + signals + ", \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": 5, \"SLEEP_THREAD_TIME\": 1},"
                + " \"WORKLOAD_SCHEDULER\": \"" + scheduler + "\"}");
    }

    /** Writes a parameter file with the given JSON. */
    Path params(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), json);
    }

    /** The checkpoint folder of {@link #params(WorkloadScheduler, boolean)}. */
    Path folder() {
        return dir.resolve(FOLDER);
    }

    /** What a job printed and how it ended. */
    record Run(LaunchResult result, String out, String err) {
        int status() {
            return result.exitStatus();
        }

        /** Rank 0's last {@code result sha256=} line, without the launcher's prefix. */
        Optional<String> resultLine() {
            return out.lines().filter(l -> l.startsWith("result sha256=")).reduce((a, b) -> b);
        }

        List<TimelineEvent> events(String type) {
            return result.events(type).toList();
        }

        /** The timeline and the output, for assertion messages. */
        String story() {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            result.printTimeline(new PrintStream(b, true, StandardCharsets.UTF_8));
            return b.toString(StandardCharsets.UTF_8) + "\n" + err;
        }
    }

    /** Runs {@code FwiRank args} on {@code ranks} ranks with the parameter file, customised; waits for the end. */
    Run run(int ranks, Path params, Consumer<LaunchSpec.Builder> customize, String... args) {
        String jobId = "fwi-" + UUID.randomUUID().toString().substring(0, 8);
        jobIds.add(jobId);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).jobId(jobId).workingDirectory(dir)
                .application(new Application(FwiRank.class.getName(), Optional.empty())).arguments(List.of(args)).params(params)
                .backoff(Duration.ofMillis(200)).grace(Duration.ofSeconds(20))
                .out(new PrintStream(out, true, StandardCharsets.UTF_8)).err(new PrintStream(err, true, StandardCharsets.UTF_8));
        RANK_JVM.forEach(b::jvmOption);
        customize.accept(b);
        LaunchResult result = Launcher.run(b.build());
        return new Run(result, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The newest committed global line in the checkpoint folder. */
    LineInfo newestGlobalLine() {
        try (Store store = Store.directory(folder());
                CheckpointEngine global = CheckpointEngine.open(EngineConfig.builder().series(Ironloop.GLOBAL_SERIES).build(), store)) {
            List<LineInfo> lines = global.lines();
            return lines.get(lines.size() - 1);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the global lines in " + folder(), e);
        }
    }

    /** The data files of the second copy of the global lines ({@code global-copy}) at {@code iteration}. */
    List<Path> globalCopyDataFiles(long iteration) {
        try (Store store = Store.directory(folder())) {
            return StoreCatalog.of(store).lines(Ironloop.GLOBAL_COPY_SERIES).stream().filter(l -> l.iteration() == iteration)
                    .map(l -> folder().resolve(l.dataFile())).toList();
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the global copy's lines in " + folder(), e);
        }
    }

    /** The FWI round the newest intact global line holds, or 0 when there is none. */
    long savedRound() {
        try (Store store = Store.directory(folder());
                CheckpointEngine global = CheckpointEngine.open(EngineConfig.builder().series(Ironloop.GLOBAL_SERIES).build(), store)) {
            return global.read().map(s -> s.longs("fwi.counters")[0]).orElse(0L);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the global state in " + folder(), e);
        }
    }

    /** How many shots of {@code round} the ranks' newest local lines hold, together. */
    int shotsSaved(long round) {
        BitSet done = new BitSet();
        try (Store store = Store.directory(folder())) {
            for (String series : StoreCatalog.of(store).series()) {
                if (!series.startsWith("rank-")) {
                    continue;
                }
                try (CheckpointEngine local = CheckpointEngine.open(EngineConfig.builder().series(series).build(), store)) {
                    Optional<RestoredState> state = local.read();
                    if (state.isPresent()) {
                        long[] rounds = state.get().longs("ledger.rounds");
                        for (int s = 0; s < rounds.length; s++) {
                            if (rounds[s] == round) {
                                done.set(s);
                            }
                        }
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the local lines in " + folder(), e);
        }
        return done.cardinality();
    }

    /** Deletes the checkpoint folder (this test's own data). */
    void clearFolder() throws IOException {
        if (Files.exists(folder())) {
            try (Stream<Path> paths = Files.walk(folder())) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** The id of the job started last (for a test thread that acts on a running job). */
    String currentJobId() {
        return jobIds.get(jobIds.size() - 1);
    }

    @Override
    public void close() {
        jobIds.forEach(JobProcesses::killJob);
    }
}
