package io.ironloop.benchmarks.sites;

import io.ironloop.Folders;
import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.config.Parameters;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Schedule;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.blocks.heat.HeatBlock;
import io.ironloop.format.Scope;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.sites.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The overhead of site protection on an application, with the protectors in JVMs of their own as a job runs them
 * ({@link ProtectorProcess}): the heat block example (one rank of an in-JVM group, in the bench's JVM, a disk line every
 * {@code every} steps in its site's store) while the cluster protector of its site X ships every new line to X's
 * protector Z, against the same run while X's protector watches an empty store. Both sides run the same three
 * protector processes (X, Y, Z, {@code SITE_HEARTBEAT} by default): the only difference is whether X finds the app's
 * lines, so the figure is the cost of shipping them — reading each committed line, sending it, and Z writing and
 * fsyncing it on this same machine — with the heartbeats on both sides (the protectors' CPU while they only beat,
 * {@code protectors_idle_cpu_s}, says how little that is). {@code SITE_TIMEOUT} is ten minutes: nobody is suspected.
 *
 * <p>Every run starts X's protector afresh (a new store restarts its lines' numbering, which a running protector
 * would take for lines it shipped already), waits until that JVM is quiet, start-up and compilation done, and lets it
 * ship a few lines of another series of the store it watches (its connection open, its copy path compiled, as in a job
 * that has run for a while) before the timed span; Z's copies of the previous run are deleted first. Alternating pairs ({@link PairedRuns}); each run
 * is timed over its loop's run and close (the last disk line durable), the same span on both sides, with the CPU
 * seconds of the app's process (this JVM: the loop, its workers, its background writes; the protectors are not in it) beside the wall clock and the CPU seconds of the three protector processes over the
 * span. After each protected run, outside the timed span, the bench waits until X has shipped the run's newest line:
 * a protected run that shipped nothing did not measure what it claims and fails the bench.
 */
final class ProtectionOverhead {
    /** Target of the overhead, percent (the issue's). */
    static final double TARGET_PCT = 2.0;
    private static final String RANK_SERIES = "rank-00000";
    private static final String PRIMING_SERIES = "bench-priming";
    /**
     * Lines X ships before a timed run: with one, a fresh X still compiled its copy path during the run and its shipping
     * cost about four times what long-running protectors' does (12 against 3 ms of CPU per MiB, under load).
     */
    private static final int PRIMING_LINES = 8;
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final List<String> SITES = List.of("X", "Y", "Z");

    /**
     * What {@link #measure} found.
     *
     * @param app the paired runs: the app's seconds and its thread's CPU seconds, unprotected against protected
     * @param protectorsCpu CPU seconds of the three protector processes during each protected run's timed span
     * @param protectorsIdleCpu the same during each unprotected run (X watching an empty store: heartbeats only)
     * @param linesShipped lines of the app X shipped in each protected run (warm-up included), counted until the run's
     *     newest line was shipped
     */
    record Result(PairedRuns.Comparison app, double[] protectorsCpu, double[] protectorsIdleCpu, double[] linesShipped) {
        /** Lines of the app X shipped over every protected run. */
        long linesShippedTotal() {
            return (long) java.util.Arrays.stream(linesShipped).sum();
        }

        /** The median of {@link #protectorsCpu}. */
        double protectorsCpuSeconds() {
            return Medians.median(protectorsCpu);
        }

        /** The median of {@link #protectorsIdleCpu}. */
        double protectorsIdleCpuSeconds() {
            return Medians.median(protectorsIdleCpu);
        }
    }

    private final HeatBlocksConfig config;
    private final long every;
    private final Path dir;
    private final JobSecret secret;
    private final List<Double> protectedCpu = new ArrayList<>();
    private final List<Double> idleCpu = new ArrayList<>();
    private final List<Double> shipped = new ArrayList<>();
    private long runs;
    private Path table;
    private List<ProtectorProcess> others; // Y and Z, for the whole measurement

    ProtectionOverhead(HeatBlocksConfig config, long every, Path dir, JobSecret secret) {
        this.config = config;
        this.every = every;
        this.dir = dir;
        this.secret = secret;
    }

    Result measure(int pairs, double pairSeconds, PrintStream err) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Map<String, String> at = new LinkedHashMap<>();
        for (String s : SITES) {
            try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) { // the kernel's choice, bound again by the protector
                at.put(s, "127.0.0.1:" + free.getLocalPort());
            }
        }
        Topology t = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y"),
                new Topology.RankPlace(2, "c", "Z")), List.of()).withProtectors(at);
        table = Files.writeString(dir.resolve("table.txt"), t.encode());
        others = new ArrayList<>();
        try {
            for (String s : List.of("Y", "Z")) {
                others.add(start(s, dir.resolve("site-" + s)));
            }
            PairedRuns.Comparison app = PairedRuns.compare("bench sites: site protection every " + every + " steps,", pairs, pairSeconds,
                    () -> run(false), () -> run(true), err);
            return new Result(app, unbox(protectedCpu), unbox(idleCpu), unbox(shipped));
        } finally {
            for (ProtectorProcess p : others) {
                p.close();
            }
        }
    }

    private ProtectorProcess start(String site, Path siteFolder) throws IOException, InterruptedException {
        return ProtectorProcess.start(site, table, siteFolder, dir.resolve("held-" + site), secret.file(), GroupKeys.SITE_HEARTBEAT.defaultValue(),
                TIMEOUT, dir.resolve("protectors.log"));
    }

    private static double[] unbox(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private PairedRuns.Sample run(boolean protect) {
        Path folder = dir.resolve("run-" + runs++);
        Path site = folder.resolve("site-X");
        // DISK_EVERY counts snapshots: every snapshot (one every `every` steps) goes to disk
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(1))
                .with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(every)).with(EngineKeys.FT_FOLDER, site);
        HeatBlocks example = new HeatBlocks(config);
        try {
            Folders.deleteTree(dir.resolve("held-Z").resolve("X")); // the previous run's lines, numbered as this run's will be
            PairedRuns.Sample sample;
            try (ProtectorProcess x = start("X", protect ? site : folder.resolve("empty-store"))) {
                x.awaitQuiet(Duration.ofSeconds(2));
                prime(x, protect ? site : folder.resolve("empty-store"));
                try (InJvmCluster cluster = InJvmCluster.open("bench-sites", 1);
                        BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).settings(example.settings())
                                .parameters(p).group(cluster.group(0)).start()) {
                    double cpu = protectorsCpu(x);
                    sample = PairedRuns.timeProcess(() -> {
                        loop.run(example.steps(), example::step);
                        loop.close();
                    });
                    (protect ? protectedCpu : idleCpu).add(protectorsCpu(x) - cpu);
                }
                if (protect) {
                    shipped.add((double) x.awaitShipped(RANK_SERIES, newestIteration(site), Duration.ofMinutes(1)));
                }
            }
            return sample;
        } catch (IOException e) {
            throw new UncheckedIOException("the overhead run in " + folder + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during the overhead run in " + folder, e);
        } finally {
            delete(folder);
        }
    }

    /**
     * {@value #PRIMING_LINES} lines (the size of one of the app's), each of a series {@value #PRIMING_SERIES}{@code -k},
     * in the store X watches, shipped before the timed span on both sides: X's connection to Z is open and its copy path compiled when the app's first line comes, as in
     * a job that has run for a while. The app's block loop reads only its rank's series.
     */
    private void prime(ProtectorProcess x, Path watched) throws IOException, InterruptedException {
        List<String> series = new ArrayList<>();
        // a series each: a protector ships the newest line of every series it finds, all of them at its next look
        for (int k = 1; k <= PRIMING_LINES; k++) {
            series.add(PRIMING_SERIES + "-" + k);
            try (Store store = Store.directory(watched);
                    CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series(series.get(k - 1)).build(), store)) {
                engine.protect("state", Scope.GLOBAL, new double[config.grid().totalX() * config.grid().totalY()]);
                engine.checkpoint(1);
                engine.awaitDurable();
            }
        }
        x.awaitShipped(series, Duration.ofMinutes(1));
    }

    private double protectorsCpu(ProtectorProcess x) {
        return x.cpuSeconds() + others.stream().mapToDouble(ProtectorProcess::cpuSeconds).sum();
    }

    private static long newestIteration(Path site) throws IOException {
        try (Store store = Store.directory(site)) {
            List<LineInfo> lines = StoreCatalog.of(store).lines(RANK_SERIES);
            if (lines.isEmpty()) {
                throw new IllegalStateException("the protected run wrote no disk line in " + site + ": the bench did not measure site protection");
            }
            return lines.get(lines.size() - 1).iteration();
        }
    }

    private static void delete(Path folder) {
        try {
            Folders.deleteTree(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the overhead run's folder " + folder, e);
        }
    }
}
