package io.ironloop.benchmarks.sites;

import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.Folders;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Schedule;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.blocks.heat.HeatBlock;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.sites.LocalSites;
import io.ironloop.sites.SiteEvent;
import io.ironloop.sites.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The overhead of site protection on an application: the heat block example (one rank of an in-JVM group, a disk line
 * every {@code every} steps in its site's store) without site protection, against the same run while the cluster
 * protectors of three sites run in this JVM ({@link LocalSites}, the default {@code SITE_HEARTBEAT} and
 * {@code SITE_TIMEOUT}), the rank's site shipping each new line to its neighbour's protector. Alternating pairs
 * ({@link PairedRuns}); each run is timed over its loop's run and close (the last disk line durable), the same span on
 * both sides. After each protected run, outside the timed span, the bench waits until the protector has shipped the
 * run's newest line, so that no copy of one run runs into the next, and counts the lines shipped: a protected run
 * that shipped none did not measure what it claims and fails the bench.
 */
final class ProtectionOverhead {
    /** Target of the overhead, percent (the issue's). */
    static final double TARGET_PCT = 2.0;
    private static final String RANK_SERIES = "rank-00000";

    private final HeatBlocksConfig config;
    private final long every;
    private final Path dir;
    private final JobSecret secret;
    private final AtomicLong shipped = new AtomicLong();
    private long runs;

    ProtectionOverhead(HeatBlocksConfig config, long every, Path dir, JobSecret secret) {
        this.config = config;
        this.every = every;
        this.dir = dir;
        this.secret = secret;
    }

    /** Lines the protectors shipped over all protected runs (warm-up included). */
    long linesShipped() {
        return shipped.get();
    }

    PairedRuns.Comparison measure(int pairs, double pairSeconds, PrintStream err) {
        return PairedRuns.compare("bench sites: site protection every " + every + " steps,", pairs, pairSeconds, () -> run(false),
                () -> run(true), err);
    }

    private PairedRuns.Sample run(boolean protect) {
        Path folder = dir.resolve("run-" + runs++);
        Path site = folder.resolve("site-X");
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(every))
                .with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(every)).with(EngineKeys.FT_FOLDER, site);
        LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
        HeatBlocks example = new HeatBlocks(config);
        try (LocalSites sites = protect ? LocalSites.start(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y"),
                new Topology.RankPlace(2, "c", "Z")), List.of(), s -> folder.resolve("site-" + s), folder, secret,
                GroupKeys.SITE_HEARTBEAT.defaultValue(), GroupKeys.SITE_TIMEOUT.defaultValue(), events::add) : null) {
            PairedRuns.Sample sample;
            try (InJvmCluster cluster = InJvmCluster.open("bench-sites", 1);
                    BlockLoop<HeatBlock> loop = BlockLoop.builder(example.layout(), example::create).settings(example.settings())
                            .parameters(p).group(cluster.group(0)).start()) {
                sample = PairedRuns.time(() -> {
                    loop.run(example.steps(), example::step);
                    loop.close();
                });
            }
            if (protect) {
                awaitShipped(site, events);
            }
            return sample;
        } catch (IOException e) {
            throw new UncheckedIOException("the site protectors of the overhead run in " + folder + " could not start", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the protector to ship the run's last line", e);
        } finally {
            delete(folder);
        }
    }

    private static void delete(Path folder) {
        try {
            Folders.deleteTree(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the overhead run's folder " + folder, e);
        }
    }

    /** Waits until X's protector has shipped the newest line of the run (at most a minute), counting what it shipped. */
    private void awaitShipped(Path site, LinkedBlockingQueue<SiteEvent> events) throws IOException, InterruptedException {
        long newest;
        try (Store store = Store.directory(site)) {
            List<LineInfo> lines = StoreCatalog.of(store).lines(RANK_SERIES);
            if (lines.isEmpty()) {
                throw new IllegalStateException("the protected run wrote no disk line in " + site + ": the bench did not measure site protection");
            }
            newest = lines.get(lines.size() - 1).iteration();
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            SiteEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e instanceof SiteEvent.Shipped s && s.site().equals("X")) {
                shipped.incrementAndGet();
                if (s.iteration() >= newest) {
                    return;
                }
            }
        }
        throw new IllegalStateException("site X's protector did not ship the run's newest line (iteration " + newest
                + ") within a minute: the bench did not measure site protection");
    }
}
