package io.ironloop.benchmarks.level;

import io.ironloop.Folders;
import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.RawDisk;
import io.ironloop.benchmarks.group.RawTcp;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.BlockImage;
import io.ironloop.core.level.DiskLevel;
import io.ironloop.core.level.ErasureCode;
import io.ironloop.core.level.ErasureLevel;
import io.ironloop.core.level.Level;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.LineFallback;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.core.level.PartnerLevel;
import io.ironloop.core.level.PeerLink;
import io.ironloop.core.level.Placement;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.core.level.Snapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * {@code ironloop bench levels}: every protection level on the same snapshots, N ranks as threads of one JVM
 * connected by loopback TCP ({@link TcpMesh}), with the references measured in the same run. Per repetition, in
 * this order: memcpy of every rank's state, raw TCP (each rank to the next), a raw durable write of every rank's
 * state (buffered, then past the page cache), then the levels partner, xor, rs, disk and shared, each a checkpoint of every rank (aggregate GB/s: N ×
 * SIZE over the slowest rank's time) followed by the recovery of world rank 0's snapshot after losing it (for rs
 * also after losing m members; the remote levels copy the disk lines while they are in the page cache, as right
 * after a checkpoint, and are recovered after the disk level's cache drop, as on a fresh machine), and the encode speed of the XOR and RS codes per core (CPU time). Every figure is
 * the median of the repetitions after one warm-up. See benchmarks/README.md.
 *
 * <p>Runs in a JVM of its own ({@link #main}, started by {@link #run}) sized for the copies the levels keep.
 */
public final class LevelsBench {
    /** Bytes per block image of a rank's state. */
    static final int BLOCK = 8 << 20;
    private static final long ITERATION_BASE = 10;
    private static final double GB = 1e9;

    private LevelsBench() {
    }

    /**
     * What to measure.
     *
     * @param ranks ranks (threads), 2..16
     * @param sizeBytes state per rank, a positive multiple of 1 MiB
     * @param repetitions measured repetitions after one warm-up
     * @param dir a directory for the disk, shared and raw-write files (emptied first and removed afterwards)
     */
    public record Options(int ranks, long sizeBytes, int repetitions, Path dir) {
        public Options {
            if (ranks < 2 || ranks > 16) {
                throw new IllegalArgumentException("ranks must be between 2 and 16, not " + ranks);
            }
            if (sizeBytes < (1 << 20) || sizeBytes % (1 << 20) != 0) {
                throw new IllegalArgumentException("the size must be a positive multiple of 1 MiB, not " + sizeBytes + " bytes");
            }
            if (repetitions < 1) {
                throw new IllegalArgumentException("at least one repetition, not " + repetitions);
            }
        }

        /** k of the XOR groups: the whole job is one group. */
        int xorK() {
            return ranks - 1;
        }

        /** m of the RS groups: 2 (1 with two ranks). */
        int rsM() {
            return ranks >= 4 ? 2 : 1;
        }

        /** k of the RS groups: the whole job is one group. */
        int rsK() {
            return ranks - rsM();
        }
    }

    /** Direct memory the levels need at most: the state, the memcpy target, and each in-memory level's two buffers. */
    public static long directMemoryNeeded(Options o) {
        long all = o.ranks() * o.sizeBytes();
        double factor = 1 + 1 + 2 + 2.0 * (1 + 1.0 / o.xorK()) + 2.0 * (1 + (double) o.rsM() / o.rsK());
        return (long) (all * factor) + (256L << 20);
    }

    /**
     * Heap the bench JVM needs at most: an erasure-coded rebuild decodes on the heap, holding every symbol of a
     * codeword (a segment of SIZE / k bytes per member) and the decoded copy, on every survivor at once.
     */
    public static long heapNeeded(Options o) {
        return 2L * o.ranks() * o.sizeBytes() + (512L << 20);
    }

    /**
     * Runs the bench in a JVM of its own with room for {@link #directMemoryNeeded} and returns its figures, in the
     * order they were measured. Progress goes to {@code err}.
     *
     * @throws IOException if the bench JVM could not measure (its standard error has been relayed)
     */
    public static Map<String, Object> run(Options o, PrintWriter err) throws IOException, InterruptedException {
        long direct = directMemoryNeeded(o);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(javaBin, "-XX:MaxDirectMemorySize=" + (direct >> 20) + "m", "-Xmx" + (heapNeeded(o) >> 20) + "m",
                "-cp", System.getProperty("java.class.path"), LevelsBench.class.getName(), Integer.toString(o.ranks()),
                Long.toString(o.sizeBytes()), Integer.toString(o.repetitions()), o.dir().toString());
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        Map<String, Object> figures = new LinkedHashMap<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    err.println(line);
                    continue;
                }
                String key = line.substring(0, eq);
                String value = line.substring(eq + 1);
                figures.put(key, parse(value));
            }
        } finally {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (p.exitValue() != 0) {
            throw new IOException("the bench JVM (pid " + p.pid() + ") exited with " + p.exitValue() + ": see its messages above");
        }
        return figures;
    }

    /** A figure as the bench JVM printed it: a boolean, a whole number (a count) or a double. */
    private static Object parse(String value) {
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        return value.matches("-?\\d+") ? (Object) Long.parseLong(value) : (Object) Double.parseDouble(value);
    }

    /** The bench JVM: {@code ranks sizeBytes repetitions dir}; prints {@code key=value} lines. */
    public static void main(String[] args) throws Exception {
        Options o = new Options(Integer.parseInt(args[0]), Long.parseLong(args[1]), Integer.parseInt(args[2]), Path.of(args[3]));
        Map<String, Object> figures = new LevelsBench.Run(o).measure();
        figures.forEach((k, v) -> System.out.println(k + "=" + v));
        System.out.flush();
        System.exit(0); // the levels' and the mesh's daemon threads need not be waited for
    }

    /** One run: the ranks' state, the levels and the references, kept for every repetition. */
    private static final class Run {
        private final Options o;
        private final int n;
        private final long size;
        private final ExecutorService pool;
        private final List<List<BlockImage>> state = new ArrayList<>();
        private final TreeMap<String, List<Double>> samples = new TreeMap<>();

        Run(Options o) {
            this.o = o;
            this.n = o.ranks();
            this.size = o.sizeBytes();
            this.pool = Executors.newFixedThreadPool(2 * n, r -> {
                Thread t = new Thread(r, "ironloop-bench-rank");
                t.setDaemon(true);
                return t;
            });
        }

        Map<String, Object> measure() throws Exception {
            Folders.deleteTree(o.dir());
            Files.createDirectories(o.dir());
            for (int r = 0; r < n; r++) {
                state.add(stateOf(r));
            }
            try (TcpMesh mesh = TcpMesh.open(n)) {
                Chains partner = new Chains(r -> new PartnerLevel(() -> mesh.link(r), Placement.pairwise()));
                Chains xor = new Chains(r -> ErasureLevel.xor(() -> mesh.link(r), o.xorK()));
                Chains rs = new Chains(r -> ErasureLevel.reedSolomon(() -> mesh.link(r), o.rsK(), o.rsM()));
                Store local = Store.directory(o.dir().resolve("local"));
                List<LineInfo> durable = java.util.Collections.synchronizedList(new ArrayList<>());
                Chains disk = new Chains(r -> new DiskLevel(local, EngineConfig.builder().jobId("bench-levels").rank(r, n)
                        .series(StoreCatalog.rankSeries(r)).retainLines(2).build(), new byte[0], 1, new EngineListener() {
                            @Override
                            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                                durable.add(line);
                            }
                        }));
                RemoteLevel shared = RemoteLevel.sharedDirectory(o.dir().resolve("shared"), 1);
                InProcessS3 server = InProcessS3.available() ? new InProcessS3(o.dir().resolve("s3")) : null;
                RemoteLevel s3 = server == null ? null : server.level(1);
                if (server == null) {
                    System.err.println("bench levels: S3Proxy is not on the class path (the single jar leaves it out): no s3 figures");
                }
                SocketChannel[][] raw = new SocketChannel[n][];
                for (int r = 0; r < n; r++) {
                    raw[r] = TcpMesh.rawPair();
                }
                for (int rep = -1; rep < o.repetitions(); rep++) {
                    long it = ITERATION_BASE + rep + 1;
                    boolean keep = rep >= 0;
                    record("memcpy_s", keep, memcpy());
                    record("raw_tcp_s", keep, rawTcp(raw));
                    record("raw_write_s", keep, rawWrite(rep + 1));
                    record("raw_write_direct_s", keep, rawWriteDirect(rep + 1));
                    record("partner_checkpoint_s", keep, partner.checkpoint(it));
                    record("partner_recover_s", keep, partner.readLost(0, it));
                    record("xor_checkpoint_s", keep, xor.checkpoint(it));
                    record("xor_recover_s", keep, erasureRecover(mesh, xor, Set.of(0), it));
                    record("rs_checkpoint_s", keep, rs.checkpoint(it));
                    record("rs_recover_s", keep, erasureRecover(mesh, rs, Set.of(0), it));
                    record("rs_checkpoint_again_s", false, rs.checkpoint(it + 1000));
                    Set<Integer> mLost = new java.util.TreeSet<>();
                    for (int r = 0; r < o.rsM(); r++) {
                        mLost.add(r);
                    }
                    record("rs_recover_m_s", keep, erasureRecover(mesh, rs, mLost, it + 1000));
                    durable.clear();
                    record("disk_checkpoint_s", keep, disk.checkpoint(it, d -> ((DiskLevel) d).awaitDurable()));
                    List<LineInfo> lines = List.copyOf(durable);
                    // the remote levels copy the lines just made durable, as the replicator does when the engine reports
                    // them, so before disk_recover drops the page cache: the raw write they are compared with reads nothing
                    double[] sharedCopy = remoteCopy(local, shared, lines);
                    record("shared_checkpoint_s", keep, sharedCopy[0]);
                    record("shared_retention_s", keep, sharedCopy[1]);
                    if (s3 != null) {
                        double[] s3Copy = remoteCopy(local, s3, lines);
                        record("s3_checkpoint_s", keep, s3Copy[0]);
                        record("s3_retention_s", keep, s3Copy[1]);
                    }
                    record("disk_recover_s", keep, diskRecover((DiskLevel) disk.levels.get(0).levels().get(0), it));
                    record("shared_recover_s", keep, remoteRecover(shared, rep + 1));
                    if (s3 != null) {
                        record("s3_recover_s", keep, remoteRecover(s3, rep + 1));
                    }
                    double[] enc = encodeGbps();
                    record("xor_encode_gbps", keep, enc[0]);
                    record("rs_encode_gbps", keep, enc[1]);
                    System.err.printf("bench levels: repetition %d of %d done%n", rep + 1, o.repetitions());
                }
                partner.close();
                xor.close();
                rs.close();
                disk.close();
                if (server != null) {
                    s3.close();
                    server.close();
                }
                for (SocketChannel[] pair : raw) {
                    pair[0].close();
                    pair[1].close();
                }
            } finally {
                pool.shutdownNow();
                Folders.deleteTree(o.dir());
            }
            return figures();
        }

        private Map<String, Object> figures() {
            Map<String, Object> f = new LinkedHashMap<>();
            double all = (double) n * size;
            f.put("ranks", (long) n);
            f.put("size_bytes", size);
            f.put("repetitions", (long) o.repetitions());
            f.put("xor_k", (long) o.xorK());
            f.put("rs_k", (long) o.rsK());
            f.put("rs_m", (long) o.rsM());
            f.put("memcpy_gbps", all / median("memcpy_s") / GB);
            f.put("raw_tcp_gbps", all / median("raw_tcp_s") / GB);
            f.put("raw_write_gbps", all / median("raw_write_s") / GB);
            f.put("raw_write_direct_gbps", all / median("raw_write_direct_s") / GB);
            for (String l : List.of("partner", "xor", "rs", "disk", "shared", "s3")) {
                if (!samples.containsKey(l + "_checkpoint_s")) {
                    continue;
                }
                f.put(l + "_checkpoint_gbps", all / median(l + "_checkpoint_s") / GB);
                f.put(l + "_checkpoint_s", median(l + "_checkpoint_s"));
                f.put(l + "_recover_s", median(l + "_recover_s"));
                if (samples.containsKey(l + "_retention_s")) {
                    f.put(l + "_retention_s", median(l + "_retention_s"));
                }
            }
            f.put("rs_recover_m_s", median("rs_recover_m_s"));
            f.put("xor_encode_gbps", median("xor_encode_gbps"));
            f.put("rs_encode_gbps", median("rs_encode_gbps"));
            // rs sends (1 + (m − 1) / k) × SIZE per rank over TCP (each data segment to its codeword's encoder, which
            // forwards m − 1 shares of SIZE / k), the partner level SIZE: at raw TCP speed and with free encoding it could
            // reach at most this
            double rsWire = 1 + (o.rsM() - 1.0) / o.rsK();
            f.put("rs_wire_bytes_per_state_byte", rsWire);
            f.put("rs_wire_bound_gbps", (double) f.get("raw_tcp_gbps") / rsWire);
            f.put("rs_over_wire_bound", (double) f.get("rs_checkpoint_gbps") / (double) f.get("rs_wire_bound_gbps"));
            f.put("partner_over_raw_tcp", (double) f.get("partner_checkpoint_gbps") / (double) f.get("raw_tcp_gbps"));
            f.put("disk_over_raw_write", (double) f.get("disk_checkpoint_gbps") / (double) f.get("raw_write_gbps"));
            f.put("shared_over_raw_write", (double) f.get("shared_checkpoint_gbps") / (double) f.get("raw_write_gbps"));
            f.put("shared_over_raw_write_direct", (double) f.get("shared_checkpoint_gbps") / (double) f.get("raw_write_direct_gbps"));
            if (f.containsKey("s3_checkpoint_gbps")) {
                f.put("s3_over_raw_write", (double) f.get("s3_checkpoint_gbps") / (double) f.get("raw_write_gbps"));
            }
            // the targets: RS ≥ 5 × FTI's level 3 (0.40 GB/s here), shared ≥ 1 × the raw write, encode ≥ 1 GB/s per core
            f.put("rs_target_met", (double) f.get("rs_checkpoint_gbps") >= 5 * 0.40);
            f.put("shared_target_met", (double) f.get("shared_over_raw_write") >= 1.0);
            f.put("xor_encode_target_met", (double) f.get("xor_encode_gbps") >= 1.0);
            f.put("rs_encode_target_met", (double) f.get("rs_encode_gbps") >= 1.0);
            return f;
        }

        private double median(String key) {
            return Medians.median(samples.get(key).stream().mapToDouble(Double::doubleValue).toArray());
        }

        private void record(String key, boolean keep, double value) {
            if (keep) {
                samples.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            }
        }

        private List<BlockImage> stateOf(int rank) {
            Random random = new Random(rank * 7919L + 1);
            byte[] chunk = new byte[1 << 20];
            List<BlockImage> images = new ArrayList<>();
            for (long off = 0, b = 0; off < size; off += BLOCK, b++) {
                int len = (int) Math.min(BLOCK, size - off);
                ByteBuffer buf = ByteBuffer.allocateDirect(len);
                while (buf.hasRemaining()) {
                    random.nextBytes(chunk);
                    buf.put(chunk, 0, Math.min(chunk.length, buf.remaining()));
                }
                images.add(BlockImage.of(rank * 1_000_000L + b, buf.flip()));
            }
            return images;
        }

        /** Runs {@code task(r)} for every rank at once; the seconds until the slowest finished. */
        private double parallel(IntFunction<Callable<?>> task) throws Exception {
            List<Callable<?>> tasks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                tasks.add(task.apply(r));
            }
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (Callable<?> t : tasks) {
                done.add(pool.submit(t));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.MINUTES);
            }
            return (System.nanoTime() - start) / 1e9;
        }

        private final List<ByteBuffer> copies = new ArrayList<>();

        private double memcpy() throws Exception {
            if (copies.isEmpty()) {
                for (int r = 0; r < n; r++) {
                    copies.add(ByteBuffer.allocateDirect((int) Math.min(size, Integer.MAX_VALUE - 8)));
                }
            }
            return parallel(r -> () -> {
                ByteBuffer to = copies.get(r).clear();
                for (BlockImage i : state.get(r)) {
                    if (to.remaining() < i.length()) {
                        to.clear();
                    }
                    to.put(i.bytes().duplicate().clear());
                }
                return null;
            });
        }

        private double rawTcp(SocketChannel[][] raw) throws Exception {
            long messages = size / RawDisk.BLOCK;
            List<Callable<?>> both = new ArrayList<>();
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                SocketChannel send = raw[r][0];
                SocketChannel receive = raw[r][1];
                both.add(() -> {
                    RawTcp.write(send, ByteBuffer.allocateDirect(RawDisk.BLOCK), messages);
                    return null;
                });
                both.add(() -> {
                    RawTcp.read(receive, ByteBuffer.allocateDirect(RawDisk.BLOCK), size);
                    return null;
                });
            }
            for (Callable<?> c : both) {
                done.add(pool.submit(c));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.MINUTES);
            }
            return (System.nanoTime() - start) / 1e9;
        }

        private double rawWrite(int round) throws Exception {
            Path dir = Files.createDirectories(o.dir().resolve("raw"));
            double s = parallel(r -> () -> {
                RawDisk.writeAndSync(dir.resolve(round + "-" + r), size, ByteBuffer.allocateDirect(RawDisk.BLOCK));
                return null;
            });
            Folders.deleteTree(dir);
            return s;
        }

        /**
         * The same durable write past the page cache ({@link RawDisk#writeAndSyncDirect}): the reference for a level that
         * writes its copies with direct I/O (shared), so that its figure is not read as beating the disk when it only skips
         * the page cache.
         */
        private double rawWriteDirect(int round) throws Exception {
            Path dir = Files.createDirectories(o.dir().resolve("raw-direct"));
            double s = parallel(r -> () -> {
                ByteBuffer block = ByteBuffer.allocateDirect(RawDisk.BLOCK + RawDisk.DIRECT_ALIGNMENT).alignedSlice(RawDisk.DIRECT_ALIGNMENT);
                RawDisk.writeAndSyncDirect(dir.resolve(round + "-" + r), size, block);
                return null;
            });
            Folders.deleteTree(dir);
            return s;
        }

        private double erasureRecover(TcpMesh mesh, Chains chains, Set<Integer> lost, long it) throws Exception {
            int[] survivors = java.util.stream.IntStream.range(0, n).filter(r -> !lost.contains(r)).toArray();
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < survivors.length; i++) {
                PeerLink link = mesh.link(i, survivors);
                LevelChain chain = chains.levels.get(survivors[i]);
                done.add(pool.submit(() -> {
                    chain.rebuild(lost, it, link);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.MINUTES);
            }
            for (int l : lost) {
                chains.readFromSurvivors(l, it, survivors);
            }
            return (System.nanoTime() - start) / 1e9;
        }

        private double diskRecover(DiskLevel rank0, long it) throws IOException {
            if (io.ironloop.benchmarks.PageCache.unavailable().isEmpty()) {
                io.ironloop.benchmarks.PageCache.drop();
            }
            List<Long> ids = state.get(0).stream().map(BlockImage::blockId).toList();
            long start = System.nanoTime();
            Map<Long, BlockImage> read = rank0.readAll(ids, it);
            double s = (System.nanoTime() - start) / 1e9;
            if (read.size() != ids.size()) {
                throw new IOException("the disk level gave back " + read.size() + " of rank 0's " + ids.size() + " blocks at iteration " + it);
            }
            return s;
        }

        /**
         * Every rank's line copied to {@code level} by a replicator of its own: the seconds until the last rank's line was
         * committed there (its commit record published), then the seconds until the levels were idle again (the retention
         * of older lines and the removal of stray temporaries that follow each commit in the background).
         */
        private double[] remoteCopy(Store local, RemoteLevel level, List<LineInfo> lines) throws Exception {
            if (lines.size() != n) {
                throw new IOException("expected a durable disk line per rank, got " + lines.size());
            }
            java.util.concurrent.CountDownLatch committed = new java.util.concurrent.CountDownLatch(n);
            List<Throwable> failed = java.util.Collections.synchronizedList(new ArrayList<>());
            LineReplicator.Listener listener = new LineReplicator.Listener() {
                @Override
                public void copied(String name, LineInfo line, Duration took, long bytes) {
                    committed.countDown();
                }

                @Override
                public void copyFailed(String name, LineInfo line, Throwable cause) {
                    failed.add(cause);
                    committed.countDown();
                }
            };
            List<LineReplicator> replicators = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                replicators.add(new LineReplicator(local, List.of(level), listener));
            }
            long start = System.nanoTime();
            for (int r = 0; r < n; r++) {
                replicators.get(r).submit(lines.get(r));
            }
            if (!committed.await(10, TimeUnit.MINUTES)) {
                throw new IOException("the " + level.name() + " level did not commit the lines in 10 minutes");
            }
            double commit = (System.nanoTime() - start) / 1e9;
            for (LineReplicator l : replicators) {
                if (!l.awaitIdle(Duration.ofMinutes(10))) {
                    throw new IOException("the " + level.name() + " level did not finish its retention in 10 minutes");
                }
            }
            double idle = (System.nanoTime() - start) / 1e9;
            if (!failed.isEmpty()) {
                throw new IOException("the " + level.name() + " level failed to copy " + failed.size() + " line(s): " + failed.get(0), failed.get(0));
            }
            return new double[] {commit, idle - commit};
        }

        private double remoteRecover(RemoteLevel level, int round) throws IOException {
            Path fresh = o.dir().resolve("fresh-" + level.name() + "-" + round);
            Store empty = Store.directory(fresh);
            long start = System.nanoTime();
            LineFallback.Fetched f = LineFallback.fetchMissing(empty, List.of(level), StoreCatalog.rankSeries(0));
            double s = (System.nanoTime() - start) / 1e9;
            if (f.lines().isEmpty()) {
                throw new IOException("the " + level.name() + " level gave back no line of rank 0: " + f.skipped());
            }
            Folders.deleteTree(fresh);
            return s;
        }

        /** Data bytes encoded per CPU second of this thread, XOR over k and RS(k, m), 1 MiB shards. */
        private double[] encodeGbps() {
            int shard = 1 << 20;
            int k = o.rsK();
            byte[][] data = new byte[Math.max(k, o.xorK())][shard];
            new Random(5).nextBytes(data[0]);
            for (int j = 1; j < data.length; j++) {
                System.arraycopy(data[0], 0, data[j], 0, shard);
                data[j][j] ^= 1;
            }
            ErasureCode x = ErasureCode.xor(o.xorK());
            ErasureCode c = ErasureCode.cauchy(k, o.rsM());
            byte[][] xorData = java.util.Arrays.copyOf(data, o.xorK());
            byte[][] rsData = java.util.Arrays.copyOf(data, k);
            int inner = (int) Math.max(1, Math.min(64L << 20, size) / shard);
            double xg = ErasureCpuBench.cpuGbps((long) inner * o.xorK() * shard, () -> {
                for (int i = 0; i < inner; i++) {
                    x.encode(xorData, new byte[1][shard], 0, shard);
                }
            });
            byte[][] parity = new byte[o.rsM()][shard];
            double rg = ErasureCpuBench.cpuGbps((long) inner * k * shard, () -> {
                for (int i = 0; i < inner; i++) {
                    c.encode(rsData, parity, 0, shard);
                }
            });
            return new double[] {xg, rg};
        }

        /** One level per rank, each in a chain of its own. */
        private final class Chains {
            final List<LevelChain> levels = new ArrayList<>();

            Chains(IntFunction<Level> make) {
                for (int r = 0; r < n; r++) {
                    levels.add(new LevelChain(List.of(make.apply(r))));
                }
            }

            double checkpoint(long it) throws Exception {
                return checkpoint(it, l -> { });
            }

            /** Every rank writes its snapshot, then {@code after} runs on its level; committed once all are done. */
            double checkpoint(long it, java.util.function.Consumer<Level> after) throws Exception {
                double s = parallel(r -> () -> {
                    LevelChain c = levels.get(r);
                    c.write(new Snapshot(r, it, state.get(r)));
                    after.accept(c.levels().get(0));
                    return null;
                });
                levels.forEach(c -> c.commit(it));
                return s;
            }

            /** The seconds a survivor holding {@code lost}'s snapshot takes to give back all of it. */
            double readLost(int lost, long it) throws IOException {
                long start = System.nanoTime();
                int[] others = java.util.stream.IntStream.range(0, n).filter(r -> r != lost).toArray();
                readFromSurvivors(lost, it, others);
                return (System.nanoTime() - start) / 1e9;
            }

            void readFromSurvivors(int lost, long it, int[] survivors) throws IOException {
                for (BlockImage want : state.get(lost)) {
                    boolean found = false;
                    for (int s : survivors) {
                        LevelChain c = levels.get(s);
                        if (c.holds(want.blockId(), it)) {
                            BlockImage got = c.read(want.blockId(), it).image();
                            if (got.crc32c() != want.crc32c()) {
                                throw new IOException("block " + want.blockId() + " came back different from " + c.levels().get(0).name());
                            }
                            found = true;
                            break;
                        }
                    }
                    if (!found) {
                        throw new IOException("no survivor's " + levels.get(0).levels().get(0).name() + " level holds block "
                                + want.blockId() + " of world rank " + lost + " at iteration " + it);
                    }
                }
            }

            void close() {
                levels.forEach(LevelChain::close);
            }
        }
    }
}
