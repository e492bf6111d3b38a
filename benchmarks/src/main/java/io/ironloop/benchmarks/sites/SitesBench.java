package io.ironloop.benchmarks.sites;

import io.ironloop.benchmarks.Medians;
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
 *       second compares like with like;</li>
 *   <li>detection: four protectors, three sites and a spare (heartbeat 50 ms, timeout 300 ms); one site's protector
 *       closed after its line was shipped; the time until its protector declares it (confirmed by the third), and until
 *       the recovery (placement on a spare, table announced) is done; every declaration of another site is counted as a false positive.</li>
 * </ul>
 * Each figure is the median of the repetitions after one warm-up.
 */
public final class SitesBench {
    private static final Duration HEARTBEAT = Duration.ofMillis(50);
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private SitesBench() {
    }

    /**
     * Runs the benchmark.
     *
     * @param lineBytes size of the replicated line's state
     * @param repetitions measured repetitions (after one warm-up)
     * @param dir an empty scratch directory
     * @param err progress
     * @return the figures, in output order
     */
    public static Map<String, Object> run(long lineBytes, int repetitions, Path dir, PrintStream err) throws Exception {
        JobSecret secret = JobSecret.create(dir, "bench");
        double[] ours = new double[repetitions];
        double[] raw = new double[repetitions];
        double[] durable = new double[repetitions];
        replication(lineBytes, repetitions, dir.resolve("replication"), secret, ours, raw, durable, err);
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
        double oursGbps = Medians.median(ours);
        double rawGbps = Medians.median(raw);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("replication_gbps", oursGbps);
        f.put("raw_tcp_gbps", rawGbps);
        f.put("replication_over_raw_tcp", oursGbps / rawGbps);
        f.put("replication_target_met", oursGbps / rawGbps >= 0.7);
        double durableGbps = Medians.median(durable);
        f.put("durable_tcp_gbps", durableGbps);
        f.put("replication_over_durable_tcp", oursGbps / durableGbps);
        f.put("replication_durable_target_met", oursGbps / durableGbps >= 0.7);
        f.put("line_bytes", lineBytes);
        f.put("site_timeout_ms", TIMEOUT.toMillis());
        f.put("detection_ms", Medians.median(detect));
        f.put("recovery_ms", Medians.median(recover));
        f.put("false_positive_declarations", falsePositives);
        f.put("false_positive_target_met", falsePositives == 0);
        f.put("repetitions", repetitions);
        return f;
    }

    private static void replication(long lineBytes, int repetitions, Path dir, JobSecret secret, double[] ours, double[] raw,
            double[] durable, PrintStream err) throws Exception {
        Topology table = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y")), List.of());
        ServerSocket xs = SiteProtector.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Path durableDir = java.nio.file.Files.createDirectories(dir.resolve("durable-tcp"));
        table = table.withProtectors(Map.of("X", "127.0.0.1:" + xs.getLocalPort(), "Y", "127.0.0.1:1"));
        // only X serves; its own heartbeats to Y fail, which the benchmark does not look at
        try (SiteProtector x = SiteProtector.start(new SiteProtector.Config("X", table, dir.resolve("site-X"), dir.resolve("held-X"),
                secret, Duration.ofSeconds(60), Duration.ofSeconds(600)), xs, e -> { });
                Store site = Store.directory(dir.resolve("site-Y"));
                LineReplicator replicator = new LineReplicator(site, List.of(new RemoteLevel("site", SiteProtector.heldStore(x.address(), "Y", secret,
                        Duration.ofSeconds(60)), 2)), LineReplicator.Listener.NONE);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().series("rank-00001").retainLines(2).build(), site);
                ServerSocketChannel sink = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
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

                long t0 = System.nanoTime();
                replicator.submit(line);
                if (!replicator.awaitIdle(Duration.ofMinutes(5))) {
                    throw new IOException("the line was not copied within 5 minutes");
                }
                double oursSeconds = (System.nanoTime() - t0) / 1e9;

                CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                    try (SocketChannel in = sink.accept()) {
                        RawTcp.read(in, ByteBuffer.allocateDirect(1 << 20), bytes);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                long t1 = System.nanoTime();
                try (SocketChannel out = SocketChannel.open(sink.getLocalAddress())) {
                    RawTcp.write(out, buf, bytes >> 20);
                    ByteBuffer tail = buf.duplicate().clear().limit((int) (bytes & ((1 << 20) - 1)));
                    while (tail.hasRemaining()) {
                        out.write(tail);
                    }
                }
                reader.get(5, TimeUnit.MINUTES);
                double rawSeconds = (System.nanoTime() - t1) / 1e9;
                double durableSeconds = durableTcp(sink, buf, bytes, durableDir.resolve("line-" + (i + 1)));
                if (i >= 0) {
                    ours[i] = bytes / oursSeconds / 1e9;
                    raw[i] = bytes / rawSeconds / 1e9;
                    durable[i] = bytes / durableSeconds / 1e9;
                }
                err.printf("bench sites: replication %d: %d bytes, %.3f GB/s (raw TCP %.3f GB/s, durable raw TCP %.3f GB/s)%n", i + 1,
                        bytes, bytes / oursSeconds / 1e9, bytes / rawSeconds / 1e9, bytes / durableSeconds / 1e9);
            }
        }
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
