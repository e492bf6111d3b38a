package io.ironloop.benchmarks.sites;

import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.PairedRuns;
import io.ironloop.benchmarks.group.RawTcp;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.format.Scope;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.sites.EmulatedLink;
import io.ironloop.sites.LocalSites;
import io.ironloop.sites.SiteEvent;
import io.ironloop.sites.SiteProtector;
import io.ironloop.sites.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code ironloop bench sites}, on loopback in this JVM:
 * <ul>
 *   <li>replication: one committed line of {@code lineBytes} copied to the neighbour site's protector (the whole-line
 *       copy, CRC32C-checked and published with fsync at the protector before it acknowledges), against two references
 *       moving the same bytes over the same loopback link, interleaved: raw TCP into memory ({@code raw_tcp_gbps}), and
 *       durable raw TCP ({@code durable_tcp_gbps}: the receiver writes the bytes to a file as they arrive, fsyncs it,
 *       renames it and fsyncs the directory, then acknowledges — the least any receiver that must not lose an
 *       acknowledged line does). On loopback the link is faster than the disk, so the first ratio measures the disk; the
 *       second compares like with like. The same copy encrypted ({@code SITE_ENCRYPT}: {@code replication_encrypted_gbps}),
 *       and over an {@link EmulatedLink} of {@link #EMULATED} against raw TCP over another link of the same shape
 *       ({@code replication_over_raw_tcp_emulated}); and a small line's copy counted in round trips over a link of
 *       {@link #ROUND_TRIP_DELAY} each way ({@code replication_round_trips_per_line}: what the load cannot blur);</li>
 *   <li>detection: four protectors, three sites and a spare (heartbeat 50 ms, timeout 300 ms); one site's protector
 *       closed after its line was shipped; the time until its protector declares it (confirmed by the third), and until
 *       the recovery (placement on a spare, table announced) is done; every declaration of another site is counted as a false positive;</li>
 *   <li>a cut link: three protectors, the link from Y to its protector X through an {@link EmulatedLink}; the link cut; the
 *       time until X reports {@code LinkCut} (Z, asked to check, still reaches Y), then {@value #WATCH_AFTER_CUT} more
 *       timeouts of watching: every declaration and every protector stopping itself counts as a false positive;</li>
 *   <li>overhead on an application ({@link ProtectionOverhead}): the heat block example writing a disk line every
 *       {@code every} steps, without and with its site's protector (a JVM of its own) shipping its lines, in alternating
 *       pairs ({@code site_overhead_pct}, target ≤ {@value ProtectionOverhead#TARGET_PCT} %, met only when the 95 %
 *       confidence interval of the median, {@code site_overhead_ci_low_pct}…{@code site_overhead_ci_high_pct}, lies
 *       under it).</li>
 * </ul>
 * Each figure is the median of the repetitions after one warm-up.
 */
public final class SitesBench {
    private static final Duration HEARTBEAT = Duration.ofMillis(50);
    private static final Duration TIMEOUT = Duration.ofMillis(300);
    /** The emulated inter-site link: 10 ms one way, 1 Gbit/s. */
    static final EmulatedLink.Shape EMULATED = EmulatedLink.Shape.of(Duration.ofMillis(10), 1_000_000_000L);
    /** Each way on the link a small line crosses to count its copy in round trips ({@code replication_round_trips_per_line}). */
    static final Duration ROUND_TRIP_DELAY = Duration.ofMillis(25);
    /** Timeouts watched after a cut link was reported, for declarations that must not come. */
    static final int WATCH_AFTER_CUT = 3;

    /**
     * What the overhead runs: the heat example's size, a disk line every {@code every} steps, how many alternating pairs,
     * and each side of a pair running back to back for at least {@code pairSeconds} (0: one run).
     *
     * @param app the heat block example's grid and steps
     * @param every steps between two disk lines (shipped by the site's protector when protected)
     * @param pairs alternating pairs measured (after the warm-up); the 95 % confidence interval of the median needs 6 or more
     * @param pairSeconds the least seconds each side of a pair runs
     */
    public record Overhead(HeatBlocksConfig app, long every, int pairs, double pairSeconds) {
        /**
         * Checks the fields.
         *
         * @throws IllegalArgumentException for {@code every} or {@code pairs} below 1 or negative seconds
         */
        public Overhead {
            java.util.Objects.requireNonNull(app, "app");
            if (every < 1 || pairs < 1 || !(pairSeconds >= 0)) {
                throw new IllegalArgumentException("a disk line every " + every + " steps (at least 1), " + pairs + " pairs (at least 1) of "
                        + pairSeconds + " s (at least 0)");
            }
        }
    }

    private SitesBench() {
    }

    /**
     * Runs the benchmark.
     *
     * @param lineBytes size of the replicated line's state
     * @param repetitions measured repetitions (after one warm-up), and pairs of the overhead
     * @param overhead what the overhead runs
     * @param dir an empty scratch directory
     * @param err progress
     * @return the figures, in output order
     */
    public static Map<String, Object> run(long lineBytes, int repetitions, Overhead overhead, Path dir, PrintStream err) throws Exception {
        JobSecret secret = JobSecret.create(dir, "bench");
        Replication rep = replication(lineBytes, repetitions, dir.resolve("replication"), secret, err);
        double[] detect = new double[repetitions];
        double[] recover = new double[repetitions];
        int falsePositives = 0;
        for (int i = -1; i < repetitions; i++) {
            double[] r = detection(dir.resolve("detection-" + (i + 1)), secret);
            if (i >= 0) {
                detect[i] = r[0];
                recover[i] = r[1];
                falsePositives += (int) r[2];
            }
            err.printf("bench sites: detection run %d: declared after %.0f ms, recovered %.0f ms later%n", i + 1, r[0], r[1]);
        }
        double[] cutDetect = new double[repetitions];
        int cutFalsePositives = 0;
        for (int i = -1; i < repetitions; i++) {
            double[] r = linkCut(secret);
            if (i >= 0) {
                cutDetect[i] = r[0];
                cutFalsePositives += (int) r[1];
            }
            err.printf("bench sites: cut link run %d: reported after %.0f ms, %d false positive(s)%n", i + 1, r[0], (int) r[1]);
        }
        ProtectionOverhead app = new ProtectionOverhead(overhead.app(), overhead.every(), dir.resolve("overhead"), secret);
        ProtectionOverhead.Result measured = app.measure(overhead.pairs(), overhead.pairSeconds(), err);
        PairedRuns.Comparison cost = measured.app();
        double[] ci = cost.overheadIntervalPct();
        double oursGbps = Medians.median(rep.clear());
        double rawGbps = Medians.median(rep.raw());
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("replication_gbps", oursGbps);
        f.put("raw_tcp_gbps", rawGbps);
        f.put("replication_over_raw_tcp", oursGbps / rawGbps);
        f.put("replication_target_met", oursGbps / rawGbps >= 0.7);
        double durableGbps = Medians.median(rep.durable());
        f.put("durable_tcp_gbps", durableGbps);
        f.put("replication_over_durable_tcp", oursGbps / durableGbps);
        f.put("replication_durable_target_met", oursGbps / durableGbps >= 0.7);
        f.put("replication_encrypted_gbps", Medians.median(rep.encrypted()));
        f.put("replication_encrypted_over_clear", Medians.median(rep.encrypted()) / oursGbps);
        double emulated = Medians.median(rep.emulated());
        double emulatedRaw = Medians.median(rep.emulatedRaw());
        f.put("emulated_link_delay_ms", EMULATED.delay().toNanos() / 1e6);
        f.put("emulated_link_gbit", EMULATED.bytesPerSecond() * 8 / 1e9);
        f.put("replication_emulated_gbps", emulated);
        f.put("raw_tcp_emulated_gbps", emulatedRaw);
        f.put("replication_over_raw_tcp_emulated", emulated / emulatedRaw);
        f.put("replication_emulated_target_met", emulated / emulatedRaw >= 0.7);
        f.put("replication_round_trips_per_line", rep.roundTrips());
        f.put("round_trip_link_delay_ms", ROUND_TRIP_DELAY.toMillis());
        f.put("line_bytes", lineBytes);
        f.put("site_timeout_ms", TIMEOUT.toMillis());
        f.put("detection_ms", Medians.median(detect));
        f.put("recovery_ms", Medians.median(recover));
        f.put("false_positive_declarations", falsePositives);
        f.put("link_cut_detection_ms", Medians.median(cutDetect));
        f.put("link_cut_false_positives", cutFalsePositives);
        f.put("false_positive_target_met", falsePositives == 0 && cutFalsePositives == 0);
        f.put("site_overhead_pct", cost.overheadPct());
        f.put("site_overhead_pct_min", cost.minPct());
        f.put("site_overhead_pct_max", cost.maxPct());
        f.put("site_overhead_ci_low_pct", ci[0]);
        f.put("site_overhead_ci_high_pct", ci[1]);
        f.put("site_overhead_cpu_pct", cost.cpuOverheadPct());
        // met only when resolved: the whole 95 % interval of the median at or under the target
        f.put("site_overhead_target_met", ci[1] <= ProtectionOverhead.TARGET_PCT);
        f.put("app_unprotected_s", Medians.median(cost.reference()));
        f.put("app_protected_s", Medians.median(cost.candidate()));
        f.put("app_unprotected_cpu_s", Medians.median(cost.referenceCpu()));
        f.put("app_protected_cpu_s", Medians.median(cost.candidateCpu()));
        f.put("protectors_cpu_s", measured.protectorsCpuSeconds());
        f.put("protectors_idle_cpu_s", measured.protectorsIdleCpuSeconds());
        // the CPU the shipping takes, over the app's own: what it costs the app where protectors and app share saturated cores
        f.put("shipping_cpu_over_app_cpu_pct", (measured.protectorsCpuSeconds() - measured.protectorsIdleCpuSeconds())
                / Medians.median(cost.referenceCpu()) * 100);
        f.put("app_pairs", overhead.pairs());
        f.put("app_runs_per_side", cost.runsPerSide());
        f.put("app_lines_shipped", measured.linesShippedTotal());
        f.put("app_lines_per_run", overhead.app().steps() / overhead.every() + 1); // and the one at the start
        f.put("app_lines_shipped_per_run", Medians.median(measured.linesShipped()));
        f.put("app_disk_every", overhead.every());
        f.put("repetitions", repetitions);
        return f;
    }

    /** The replication figures, GB/s per measured repetition. */
    private record Replication(double[] clear, double[] encrypted, double[] raw, double[] durable, double[] emulated, double[] emulatedRaw,
            double roundTrips) {
        Replication(int repetitions) {
            this(new double[repetitions], new double[repetitions], new double[repetitions], new double[repetitions], new double[repetitions],
                    new double[repetitions], 0);
        }

        Replication withRoundTrips(double trips) {
            return new Replication(clear, encrypted, raw, durable, emulated, emulatedRaw, trips);
        }
    }

    private static Replication replication(long lineBytes, int repetitions, Path dir, JobSecret secret, PrintStream err) throws Exception {
        Replication r = new Replication(repetitions);
        Path durableDir = java.nio.file.Files.createDirectories(dir.resolve("durable-tcp"));
        // three holders of Y's lines, each a protector of site X serving alone (their own heartbeats to Y fail, which the
        // benchmark does not look at): in the clear, encrypted, and reached over the emulated inter-site link
        try (SiteProtector x = holder(dir.resolve("clear"), secret, false);
                SiteProtector enc = holder(dir.resolve("encrypted"), secret, true);
                SiteProtector far = holder(dir.resolve("emulated"), secret, false);
                EmulatedLink toFar = EmulatedLink.start(far.address(), EMULATED);
                Store site = Store.directory(dir.resolve("site-Y"));
                LineReplicator replicator = replicator(site, SiteProtector.heldStore(x.address(), "Y", secret, Duration.ofSeconds(60)));
                LineReplicator sealed = replicator(site, SiteProtector.heldStore(enc.address(), "Y", secret, true, Duration.ofSeconds(60)));
                LineReplicator overLink = replicator(site, SiteProtector.heldStore(toFar.address(), "Y", secret, Duration.ofSeconds(60)));
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series("rank-00001").retainLines(2).build(), site);
                ServerSocketChannel sink = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                EmulatedLink toSink = EmulatedLink.start((InetSocketAddress) sink.getLocalAddress(), EMULATED)) {
            double[] state = new double[(int) (lineBytes / 8)];
            engine.protect("state", Scope.GLOBAL, state);
            Random rnd = new Random(5);
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            for (int i = -1; i < repetitions; i++) {
                for (int k = 0; k < state.length; k++) {
                    state[k] = rnd.nextDouble();
                }
                engine.checkpoint(i + 2);
                engine.awaitDurable();
                List<LineInfo> lines = StoreCatalog.of(site).lines("rank-00001");
                LineInfo line = lines.get(lines.size() - 1);
                long bytes = site.size(line.dataFile()) + site.size(line.dataFile().replace(".ilc", ".commit"));

                double[] gbps = {
                    bytes / replicate(replicator, line) / 1e9,
                    bytes / replicate(sealed, line) / 1e9,
                    bytes / rawTcp(sink, (InetSocketAddress) sink.getLocalAddress(), buf, bytes) / 1e9,
                    bytes / durableTcp(sink, buf, bytes, durableDir.resolve("line-" + (i + 1))) / 1e9,
                    bytes / replicate(overLink, line) / 1e9,
                    bytes / rawTcp(sink, toSink.address(), buf, bytes) / 1e9};
                if (i >= 0) {
                    double[][] into = {r.clear(), r.encrypted(), r.raw(), r.durable(), r.emulated(), r.emulatedRaw()};
                    for (int k = 0; k < gbps.length; k++) {
                        into[k][i] = gbps[k];
                    }
                }
                err.printf("bench sites: replication %d: %d bytes, %.3f GB/s, encrypted %.3f GB/s (raw TCP %.3f GB/s, durable raw TCP %.3f GB/s);"
                        + " over the emulated link %.3f GB/s (raw TCP %.3f GB/s)%n", i + 1, bytes, gbps[0], gbps[1], gbps[2], gbps[3], gbps[4], gbps[5]);
            }
            r = r.withRoundTrips(roundTrips(far, dir.resolve("site-W"), secret, repetitions, err));
        }
        return r;
    }

    /**
     * A line's copy counted in round trips: a small line (64 KiB) replicated to {@code holder} through a link of
     * {@link #ROUND_TRIP_DELAY} each way and no bandwidth cap, where the round trips dominate whatever the machine's load;
     * seconds over one round trip, the median of the repetitions after two warm-up lines (retention deletes from the third
     * line on, as in a long run).
     */
    private static double roundTrips(SiteProtector holder, Path dir, JobSecret secret, int repetitions, PrintStream err) throws Exception {
        double roundTrip = 2 * ROUND_TRIP_DELAY.toNanos() / 1e9;
        double[] trips = new double[repetitions];
        try (EmulatedLink slow = EmulatedLink.start(holder.address(), new EmulatedLink.Shape(ROUND_TRIP_DELAY, 0));
                Store site = Store.directory(dir);
                LineReplicator replicator = replicator(site, SiteProtector.heldStore(slow.address(), "W", secret, Duration.ofSeconds(60)));
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series("rank-00002").retainLines(2).build(), site)) {
            double[] state = new double[8192];
            engine.protect("state", Scope.GLOBAL, state);
            for (int i = -2; i < repetitions; i++) {
                java.util.Arrays.fill(state, i);
                engine.checkpoint(i + 3);
                engine.awaitDurable();
                List<LineInfo> lines = StoreCatalog.of(site).lines("rank-00002");
                double t = replicate(replicator, lines.get(lines.size() - 1)) / roundTrip;
                if (i >= 0) {
                    trips[i] = t;
                }
                err.printf("bench sites: a 64 KiB line over a %d ms link (each way), run %d: %.1f round trips%n", ROUND_TRIP_DELAY.toMillis(),
                        i + 1, t);
            }
        }
        return Medians.median(trips);
    }

    private static LineReplicator replicator(Store site, Store held) {
        return new LineReplicator(site, List.of(new RemoteLevel("site", held, 2)), LineReplicator.Listener.NONE);
    }

    /** Seconds to send {@code bytes} to {@code sink} by connecting to {@code via} (the sink itself or a link to it), until all arrived. */
    private static double rawTcp(ServerSocketChannel sink, InetSocketAddress via, ByteBuffer buf, long bytes) throws Exception {
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (SocketChannel in = sink.accept()) {
                RawTcp.read(in, ByteBuffer.allocateDirect(1 << 20), bytes);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long t = System.nanoTime();
        try (SocketChannel out = SocketChannel.open(via)) {
            RawTcp.write(out, buf, bytes >> 20);
            ByteBuffer tail = buf.duplicate().clear().limit((int) (bytes & ((1 << 20) - 1)));
            while (tail.hasRemaining()) {
                out.write(tail);
            }
        }
        reader.get(5, TimeUnit.MINUTES);
        return (System.nanoTime() - t) / 1e9;
    }

    /** A protector of site X in a two-site table, serving alone (heartbeats 60 s apart): the holder of Y's replicated lines. */
    private static SiteProtector holder(Path dir, JobSecret secret, boolean encrypt) throws IOException {
        Topology table = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y")), List.of());
        ServerSocket xs = SiteProtector.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        table = table.withProtectors(Map.of("X", "127.0.0.1:" + xs.getLocalPort(), "Y", "127.0.0.1:1"));
        return SiteProtector.start(new SiteProtector.Config("X", table, dir.resolve("site-X"), dir.resolve("held-X"), secret,
                Duration.ofSeconds(60), Duration.ofSeconds(600), encrypt), xs, e -> { });
    }

    /** Seconds to copy {@code line} with {@code replicator}, from submitting it to the copy done. */
    private static double replicate(LineReplicator replicator, LineInfo line) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        replicator.submit(line);
        if (!replicator.awaitIdle(Duration.ofMinutes(5))) {
            throw new IOException("the line was not copied within 5 minutes");
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * The durable reference: {@code bytes} over a fresh loopback connection, written to {@code target}'s temporary as they
     * arrive, fsynced, renamed and the directory fsynced before a one-byte acknowledgement; the sender's seconds from
     * connecting to the acknowledgement.
     */
    private static double durableTcp(ServerSocketChannel sink, ByteBuffer buf, long bytes, Path target) throws Exception {
        CompletableFuture<Void> receiver = CompletableFuture.runAsync(() -> {
            Path temp = target.resolveSibling(target.getFileName() + ".tmp");
            try (SocketChannel in = sink.accept();
                    java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(temp, java.nio.file.StandardOpenOption.CREATE_NEW,
                            java.nio.file.StandardOpenOption.WRITE)) {
                ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
                long got = 0;
                while (got < bytes) {
                    chunk.clear().limit((int) Math.min(chunk.capacity(), bytes - got));
                    int n = in.read(chunk);
                    if (n < 0) {
                        throw new IOException("the sender closed after " + got + " of " + bytes + " bytes");
                    }
                    chunk.flip();
                    while (chunk.hasRemaining()) {
                        file.write(chunk);
                    }
                    got += n;
                }
                io.ironloop.core.AtomicFile.publish(file, temp, target, false);
                in.write(ByteBuffer.wrap(new byte[] {1}));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long t = System.nanoTime();
        try (SocketChannel out = SocketChannel.open(sink.getLocalAddress())) {
            RawTcp.write(out, buf, bytes >> 20);
            ByteBuffer tail = buf.duplicate().clear().limit((int) (bytes & ((1 << 20) - 1)));
            while (tail.hasRemaining()) {
                out.write(tail);
            }
            if (out.read(ByteBuffer.allocate(1)) != 1) {
                throw new IOException("the durable reference's receiver did not acknowledge");
            }
        }
        double seconds = (System.nanoTime() - t) / 1e9;
        receiver.get(5, TimeUnit.MINUTES);
        return seconds;
    }

    /** One detection run: {declared ms after the loss, recovery ms after the declaration, false positives}. */
    private static double[] detection(Path dir, JobSecret secret) throws Exception {
        LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
        try (LocalSites sites = LocalSites.start(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y"),
                new Topology.RankPlace(2, "c", "Z")), List.of(Topology.Site.spare("S", List.of("d"), "")), s -> dir.resolve("site-" + s), dir,
                secret, HEARTBEAT, TIMEOUT, events::add)) {
            try (Store site = Store.directory(dir.resolve("site-Y"));
                    CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series("rank-00001").build(), site)) {
                engine.protect("state", Scope.GLOBAL, new double[1 << 17]);
                engine.checkpoint(1);
                engine.awaitDurable();
            }
            List<SiteEvent> seen = new ArrayList<>();
            await(events, seen, e -> e instanceof SiteEvent.Shipped s && s.site().equals("Y"));
            Thread.sleep(2 * TIMEOUT.toMillis());
            long t0 = System.nanoTime();
            sites.kill("Y");
            await(events, seen, e -> e instanceof SiteEvent.Declared d && d.target().equals("Y"));
            double declared = (System.nanoTime() - t0) / 1e6;
            SiteEvent.Recovered r = (SiteEvent.Recovered) await(events, seen, e -> e instanceof SiteEvent.Recovered);
            long falsePositives = seen.stream().filter(e -> e instanceof SiteEvent.Declared d && !d.target().equals("Y")).count();
            return new double[] {declared, r.took().toNanos() / 1e6, falsePositives};
        }
    }

    /**
     * One cut-link run: three protectors, Y reaching its protector X only through an emulated link, which is cut once
     * they have watched each other for two timeouts. {ms from the cut to X's {@code LinkCut}, false positives: every
     * declaration or protector stopping itself until {@value #WATCH_AFTER_CUT} timeouts after it}.
     */
    private static double[] linkCut(JobSecret secret) throws Exception {
        Topology bare = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y"),
                new Topology.RankPlace(2, "c", "Z")), List.of());
        Map<String, ServerSocket> sockets = new LinkedHashMap<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        for (String s : List.of("X", "Y", "Z")) {
            ServerSocket ss = SiteProtector.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            sockets.put(s, ss);
            addresses.put(s, "127.0.0.1:" + ss.getLocalPort());
        }
        LinkedBlockingQueue<SiteEvent> events = new LinkedBlockingQueue<>();
        Path scratch = java.nio.file.Files.createTempDirectory("ironloop-bench-sites-cut");
        List<SiteProtector> started = new ArrayList<>();
        try (EmulatedLink link = EmulatedLink.start(SiteProtector.address(addresses.get("X")), EmulatedLink.Shape.NONE)) {
            Map<String, String> viaLink = new LinkedHashMap<>(addresses);
            viaLink.put("X", link.hostPort());
            for (String s : List.of("X", "Y", "Z")) {
                Topology view = bare.withProtectors(s.equals("Y") ? viaLink : addresses);
                started.add(SiteProtector.start(new SiteProtector.Config(s, view, scratch.resolve("site-" + s), scratch.resolve("held-" + s),
                        secret, HEARTBEAT, TIMEOUT), sockets.get(s), events::add));
            }
            Thread.sleep(2 * TIMEOUT.toMillis());
            List<SiteEvent> seen = new ArrayList<>();
            events.drainTo(seen);
            long t0 = System.nanoTime();
            link.cut();
            // X's verdict on Y: the cut link reported, or (a false positive) Y declared
            await(events, seen, e -> e instanceof SiteEvent.LinkCut c && c.site().equals("X") && c.target().equals("Y")
                    || e instanceof SiteEvent.Declared d && d.target().equals("Y"));
            double reported = (System.nanoTime() - t0) / 1e6;
            long watchUntil = System.nanoTime() + TIMEOUT.multipliedBy(WATCH_AFTER_CUT).toNanos();
            for (long left = watchUntil - System.nanoTime(); left > 0; left = watchUntil - System.nanoTime()) {
                SiteEvent e = events.poll(left, TimeUnit.NANOSECONDS);
                if (e != null) {
                    seen.add(e);
                }
            }
            long falsePositives = seen.stream().filter(e -> e instanceof SiteEvent.Declared || e instanceof SiteEvent.Stopped).count();
            return new double[] {reported, falsePositives};
        } finally {
            started.forEach(SiteProtector::close);
            sockets.values().forEach(ss -> {
                try {
                    ss.close();
                } catch (IOException e) {
                    // closing: nothing left to do
                }
            });
            io.ironloop.Folders.deleteTree(scratch);
        }
    }

    private static SiteEvent await(LinkedBlockingQueue<SiteEvent> events, List<SiteEvent> seen, java.util.function.Predicate<SiteEvent> what)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            SiteEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                break;
            }
            seen.add(e);
            if (what.test(e)) {
                return e;
            }
        }
        throw new IOException("no such event within 60 s; saw " + seen);
    }
}
