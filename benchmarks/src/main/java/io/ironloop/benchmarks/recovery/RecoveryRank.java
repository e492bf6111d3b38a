package io.ironloop.benchmarks.recovery;

import io.ironloop.benchmarks.ChildMain;
import io.ironloop.BufferPool;
import io.ironloop.core.Schedule;
import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.group.RawTcp;
import io.ironloop.config.Parameters;
import io.ironloop.core.level.BlockImage;
import io.ironloop.core.level.Level;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.PartnerLevel;
import io.ironloop.core.level.Placement;
import io.ironloop.core.level.SelfMemoryLevel;
import io.ironloop.core.level.Snapshot;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.HeartbeatArrangement;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.blocks.Grid2D;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.internal.blocks.GroupPeers;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One rank JVM of {@code ironloop bench recovery}, started by the benchmark's {@code RankJob} with the
 * launcher's environment contract. Prints machine-readable lines on standard output (logs go to standard
 * error) and halts when its standard input closes.
 *
 * <p>Arguments: {@code INTERVAL_MS TIMEOUT_MS SCENARIO ...}:
 * <ul>
 *   <li>{@code perf SIZE BLOCK REPS}: SIZE bytes of state per rank in images of BLOCK bytes. After
 *       {@value #WARMUP} unmeasured rounds, REPS rounds of (a) the partner copy: the real {@link PartnerLevel}
 *       (pairwise) writing the snapshot to the partner's memory over the group's data connections while
 *       receiving the partner's, and (b) the same exchange over raw {@link SocketChannel}s between the same JVMs
 *       ({@link RawTcp}), in alternating order, each the slowest rank's time. Then one round whose handshake
 *       measures the live heap with both buffers of both memory levels held. Then a {@link BlockLoop} over the
 *       same group snapshotting every iteration: per iteration, memcpy of the blocks' bytes on every rank at once
 *       and the loop's snapshot (its blocking time). Rank 0 prints {@code RESULT key=v,v,... ...}; every rank
 *       prints {@code MEMORY heapFactor rssFactor}.</li>
 *   <li>{@code kill SIZE BLOCK SPARES EVERY KILL_AT STEPS VICTIM}: a {@link BlockLoop} of SIZE bytes per computing
 *       rank; the victim prints {@code KILLME} after iteration KILL_AT and waits to be killed; survivors print
 *       {@code SHRUNK}, {@code RECOVERED}, {@code RESNAP} (the snapshot under the new placement), {@code NEXT} (the
 *       first iteration completed after the recovery) with epoch microseconds, and {@code DONE}.</li>
 * </ul>
 */
public final class RecoveryRank {
    /** Unmeasured rounds before the measured ones. */
    static final int WARMUP = 2;
    private static final int MESSAGE = 1 << 20;

    private RecoveryRank() {
    }

    public static void main(String[] args) {
        ChildMain.run(args, RecoveryRank::run);
    }

    private static void run(String[] a) throws Exception {
        GroupConfig cfg = GroupConfig.builder().arrangement(HeartbeatArrangement.STAR).heartbeatInterval(Duration.ofMillis(Long.parseLong(a[0])))
                .heartbeatTimeout(Duration.ofMillis(Long.parseLong(a[1]))).joinTimeout(Duration.ofSeconds(120)).build();
        ProcessGroup g = ProcessGroups.join(cfg, GroupListener.NONE);
        switch (a[2]) {
            case "perf" -> perf(g, Long.parseLong(a[3]), Integer.parseInt(a[4]), Integer.parseInt(a[5]));
            case "kill" -> kill(g, Long.parseLong(a[3]), Integer.parseInt(a[4]), Integer.parseInt(a[5]), Long.parseLong(a[6]),
                    Long.parseLong(a[7]), Long.parseLong(a[8]), Integer.parseInt(a[9]));
            default -> throw new IllegalArgumentException("unknown scenario " + a[2]);
        }
    }

    // ---------------------------------------------------------------- perf

    private static void perf(ProcessGroup g, long size, int block, int reps) throws Exception {
        int rank = g.rank();
        List<String> hosts = Collections.nCopies(g.size(), "");
        Placement placement = Placement.pairwise();
        int[] to = placement.partnersOf(rank, hosts);
        int[] from = placement.sourcesOf(rank, hosts);
        Map<Integer, SocketChannel>[] raw = RawTcp.connect(g, to, from);
        ByteBuffer sendBuf = ByteBuffer.allocateDirect(MESSAGE);
        ByteBuffer recvBuf = ByteBuffer.allocateDirect(MESSAGE);
        ExecutorService rawSender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "raw-send");
            t.setDaemon(true);
            return t;
        });

        long heap0 = liveMemory();
        long rss0 = procStatus("VmRSS");
        byte[][] state = state(size, block, rank);
        HeapProbe probe = new HeapProbe();
        BufferPool pool = new BufferPool(Long.MAX_VALUE);
        // the raw reference moves the same bytes from memory of the state's size into memory of that size, touched once
        ByteBuffer[] rawState = new ByteBuffer[state.length];
        ByteBuffer[] rawTarget = new ByteBuffer[state.length];
        long rawBytes = 0;
        for (int k = 0; k < state.length; k++) {
            rawState[k] = ByteBuffer.allocateDirect(state[k].length).put(state[k]).flip();
            rawTarget[k] = ByteBuffer.allocateDirect(state[k].length).put(state[k]).flip();
            rawBytes += 2L * state[k].length;
        }
        PartnerLevel partner = new PartnerLevel(() -> new GroupPeers(g, Map.of()), placement); // every rank on one host
        LevelChain chain = new LevelChain(List.of(probe, new SelfMemoryLevel(pool), partner));
        List<Double> ours = new ArrayList<>();
        List<Double> refs = new ArrayList<>();
        List<Double> cached = new ArrayList<>();
        long iteration = 0;
        for (int rep = -WARMUP; rep < reps; rep++) {
            iteration++;
            Snapshot s = capture(rank, iteration, state, pool);
            double copy;
            double reference;
            if (rep % 2 == 0) {
                copy = partnerCopy(g, chain, s);
                reference = rawCopy(g, raw, rawSender, rawState, rawTarget);
            } else {
                reference = rawCopy(g, raw, rawSender, rawState, rawTarget);
                copy = partnerCopy(g, chain, s);
            }
            double fromCache = rawCopyCached(g, raw, rawSender, sendBuf, recvBuf, size);
            if (rep >= 0) {
                ours.add(copy);
                refs.add(reference);
                cached.add(fromCache);
            }
        }
        iteration++;
        probe.armed = true;
        partnerCopy(g, chain, capture(rank, iteration, state, pool));
        double memoryFactor = (probe.measured - heap0 - rawBytes) / (double) size; // the raw reference's buffers are not the level's
        double rssFactor = (procStatus("VmHWM") - rss0) / (double) size;
        System.out.println("MEMORY " + memoryFactor + " " + rssFactor);
        for (Map<Integer, SocketChannel> m : raw) {
            for (SocketChannel ch : m.values()) {
                ch.close();
            }
        }
        rawSender.shutdownNow();
        chain.close();
        state = null;
        g.barrier();

        double iterationS = 2 * Medians.median(ours.stream().mapToDouble(Double::doubleValue).toArray());
        Loop loop = blockingLoop(g, size, block, reps, iterationS);
        if (rank == 0) {
            System.out.println("RESULT partner_s=" + csv(ours) + " raw_s=" + csv(refs) + " raw_cached_s=" + csv(cached) + " blocking_s=" + csv(loop.take)
                    + " capture_s=" + csv(loop.capture) + " memcpy_s=" + csv(loop.memcpy) + " formula=" + loop.formula
                    + " iteration_s=" + iterationS);
        }
    }

    /** SIZE bytes of pseudo-random state in arrays of BLOCK bytes (the last one shorter). */
    private static byte[][] state(long size, int block, int rank) {
        int n = (int) ((size + block - 1) / block);
        byte[][] s = new byte[n][];
        long x = 0x9E3779B97F4A7C15L * (rank + 1);
        for (int k = 0; k < n; k++) {
            s[k] = new byte[(int) Math.min(block, size - (long) k * block)];
            LongBuffer l = ByteBuffer.wrap(s[k]).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            while (l.hasRemaining()) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                l.put(x);
            }
        }
        return s;
    }

    /**
     * What a loop's snapshot does before the levels (not timed here): a copy of every block into a direct buffer
     * of the pool the own-memory level gives replaced snapshots back to, with its CRC32C.
     */
    private static Snapshot capture(int rank, long iteration, byte[][] state, BufferPool pool) {
        List<BlockImage> images = new ArrayList<>(state.length);
        for (int k = 0; k < state.length; k++) {
            state[k][0] = (byte) iteration; // every snapshot differs
            images.add(BlockImage.of(k, pool.take(state[k].length).put(state[k]).flip()));
        }
        return new Snapshot(rank, iteration, images);
    }


    /** The snapshot through own memory and the partner level on every rank at once; the slowest rank's seconds. */
    private static double partnerCopy(ProcessGroup g, LevelChain chain, Snapshot s) throws IOException {
        g.barrier();
        long t0 = System.nanoTime();
        chain.write(s);
        double seconds = (System.nanoTime() - t0) / 1e9;
        g.barrier();
        chain.commit(s.iteration());
        return g.allreduce(seconds, ReduceOp.MAX);
    }

    /**
     * The same exchange over raw sockets: each rank writes its state's bytes (direct buffers of the images' sizes) to
     * each partner while reading each source's into direct buffers of the same sizes — the kernel's copies of the
     * same amount of distinct memory, the least a partner copy does.
     */
    private static double rawCopy(ProcessGroup g, Map<Integer, SocketChannel>[] raw, ExecutorService sender, ByteBuffer[] state,
            ByteBuffer[] target) throws Exception {
        g.barrier();
        long t0 = System.nanoTime();
        Future<?> sending = sender.submit(() -> {
            for (SocketChannel ch : raw[0].values()) {
                RawTcp.write(ch, state);
            }
            return null;
        });
        for (SocketChannel ch : raw[1].values()) {
            RawTcp.read(ch, target);
        }
        sending.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        g.barrier();
        return g.allreduce(seconds, ReduceOp.MAX);
    }

    /**
     * Supplementary: the exchange of {@code bench group}'s reference, SIZE bytes sent as the same 1 MiB buffer over and
     * over and read into one 1 MiB buffer — memory that stays in the processor's cache, which no copy of a state does.
     */
    private static double rawCopyCached(ProcessGroup g, Map<Integer, SocketChannel>[] raw, ExecutorService sender, ByteBuffer sendBuf,
            ByteBuffer recvBuf, long size) throws Exception {
        g.barrier();
        long t0 = System.nanoTime();
        Future<?> sending = sender.submit(() -> {
            for (SocketChannel ch : raw[0].values()) {
                RawTcp.write(ch, sendBuf, size / MESSAGE);
            }
            return null;
        });
        for (SocketChannel ch : raw[1].values()) {
            RawTcp.read(ch, recvBuf, size);
        }
        sending.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        g.barrier();
        return g.allreduce(seconds, ReduceOp.MAX);
    }

    private static final class Loop {
        final List<Double> take = new ArrayList<>();
        final List<Double> capture = new ArrayList<>();
        final List<Double> memcpy = new ArrayList<>();
        double formula;
    }

    /**
     * A block loop over the same group, a snapshot (own memory + partner) every iteration. Each step copies every
     * rank's blocks' bytes with {@link System#arraycopy} into touched arrays at once (the memcpy reference), then
     * stands for the application's compute by sleeping until the iteration has lasted {@code iterationS} (twice the
     * partner copy measured before), the time the background copy of the snapshot has to overlap. Blocking is what
     * the loop's thread spends on a snapshot: the capture ({@code Snapshotted.blocking}) plus its wait at the
     * handshake one iteration later ({@code Handshake.waited}); each step reports the slowest rank's figures of the
     * snapshot before.
     */
    private static Loop blockingLoop(ProcessGroup g, long size, int block, int reps, double iterationS) {
        int perRank = (int) Math.max(1, size / block);
        int ranks = g.size();
        Grid2D layout = new Grid2D(perRank * ranks, 1, false, false);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(1)).with(BlockKeys.DISK_EVERY, Schedule.never());
        Map<Long, Double> capture = new java.util.concurrent.ConcurrentHashMap<>();
        Map<Long, Double> waited = new java.util.concurrent.ConcurrentHashMap<>();
        Loop out = new Loop();
        try (BlockLoop<BenchBlock> loop = BlockLoop.builder(layout, id -> new BenchBlock(id, block / Double.BYTES)).parameters(p).group(g)
                .subscribe(e -> {
                    if (e instanceof RuntimeEvent.Snapshotted s) {
                        capture.put(s.iteration(), s.blocking().toNanos() / 1e9);
                    } else if (e instanceof RuntimeEvent.Handshake h) {
                        waited.put(h.iteration(), h.waited().toNanos() / 1e9);
                    }
                }).start()) {
            out.formula = loop.memoryFactor();
            List<double[]> targets = new ArrayList<>();
            for (BenchBlock b : loop.blocks()) {
                double[] t = new double[b.data().length];
                java.util.Arrays.fill(t, 1.0);
                targets.add(t);
            }
            loop.run(WARMUP + reps + 2L, step -> {
                ProcessGroup sg = step.group();
                long it = step.iteration();
                long settled = it - 1; // the snapshot taken as iteration it - 1 ended, settled as iteration it - 1 + 1 ended
                if (settled > WARMUP && out.take.size() < reps) {
                    double[] slowest = sg.allreduce(new double[] {capture.get(settled), capture.get(settled) + waited.get(settled)},
                            ReduceOp.MAX);
                    out.capture.add(slowest[0]);
                    out.take.add(slowest[1]);
                }
                sg.barrier();
                long t0 = System.nanoTime();
                List<BenchBlock> blocks = step.blocks();
                for (int k = 0; k < blocks.size(); k++) {
                    double[] src = blocks.get(k).data();
                    System.arraycopy(src, 0, targets.get(k), 0, src.length);
                }
                double memcpy = sg.allreduce((System.nanoTime() - t0) / 1e9, ReduceOp.MAX);
                if (it > WARMUP && out.memcpy.size() < reps) {
                    out.memcpy.add(memcpy);
                }
                blocks.forEach(b -> b.touch(it));
                long rest = t0 + (long) (iterationS * 1e9) - System.nanoTime();
                if (rest > 0) {
                    try {
                        java.util.concurrent.TimeUnit.NANOSECONDS.sleep(rest); // the application's compute
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        }
        return out;
    }

    // ---------------------------------------------------------------- kill

    private static void kill(ProcessGroup g, long size, int block, int spares, long every, long killAt, long steps, int victim)
            throws InterruptedException {
        int perRank = (int) Math.max(1, size / block);
        int computing = g.size() - spares;
        int world = g.worldRank(g.rank());
        Grid2D layout = new Grid2D(perRank * computing, 1, false, false);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(every)).with(BlockKeys.DISK_EVERY, Schedule.never())
                .with(BlockKeys.SPARES, (long) spares);
        boolean[] recovered = {false, false, false};
        try (BlockLoop<BenchBlock> loop = BlockLoop.builder(layout, id -> new BenchBlock(id, block / Double.BYTES)).parameters(p).group(g)
                .subscribe(e -> {
                    if (e instanceof RuntimeEvent.GroupShrunk s) {
                        System.out.println("SHRUNK " + epochMicros() + " " + micros(s.took()));
                    } else if (e instanceof RuntimeEvent.RecoveredOnline r) {
                        recovered[0] = true;
                        System.out.println("RECOVERED " + epochMicros() + " " + micros(r.detect()) + " " + micros(r.shrink()) + " "
                                + micros(r.restore()) + " " + micros(r.rebalance()) + " " + r.sparesUsed() + " " + r.iteration() + " "
                                + r.source() + " " + r.lostWorldRanks().size());
                    } else if (e instanceof RuntimeEvent.Saved s && recovered[0] && !recovered[1]) {
                        recovered[1] = true;
                        System.out.println("RESNAP " + epochMicros() + " " + micros(s.sinceSnapshot()));
                    }
                }).start()) {
            System.out.println("STARTED " + loop.blocks().size());
            loop.run(steps, step -> {
                step.blocks().forEach(b -> b.touch(step.iteration()));
                step.sum(BenchBlock::first); // collective: a rank's death surfaces here
                if (world == victim && step.iteration() == killAt) {
                    System.out.println("KILLME " + epochMicros());
                    System.out.flush();
                    try {
                        new CountDownLatch(1).await(); // until the benchmark kills this JVM
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (recovered[0] && !recovered[2]) {
                    recovered[2] = true;
                    System.out.println("NEXT " + epochMicros() + " " + step.iteration());
                }
            });
            System.out.println("DONE " + loop.onlineRecoveries() + " " + loop.blocks().size());
        }
    }

    // ---------------------------------------------------------------- helpers

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1000;
    }

    /** Heap in use after full collections (what is live) plus the direct buffers in use (the snapshot images). */
    static long liveMemory() {
        for (int k = 0; k < 2; k++) {
            System.gc();
        }
        long direct = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                direct += b.getMemoryUsed();
            }
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() + direct;
    }

    /** A {@code kB} figure of {@code /proc/self/status} in bytes, or 0 where there is none. */
    static long procStatus(String key) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith(key + ":")) {
                    return Long.parseLong(l.substring(key.length() + 1).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private static String csv(List<Double> values) {
        StringJoiner j = new StringJoiner(",");
        values.forEach(v -> j.add(Double.toString(v)));
        return j.toString();
    }

    /**
     * A level first in the chain that keeps nothing; armed, its commit — called before the other levels commit, so
     * with the state and both buffers of own memory and partner copies held — measures the live heap.
     */
    private static final class HeapProbe implements Level {
        boolean armed;
        long measured = -1;

        @Override
        public String name() {
            return "heap-probe";
        }

        @Override
        public void write(Chain chain) throws IOException {
            chain.proceed();
        }

        @Override
        public void commit(long iteration) {
            if (armed) {
                armed = false;
                measured = liveMemory();
            }
        }

        @Override
        public void abort(long iteration) {
        }

        @Override
        public Map<Long, Long> holdings() {
            return Map.of();
        }

        @Override
        public Optional<BlockImage> read(long blockId, long iteration) {
            return Optional.empty();
        }

        @Override
        public double copiesInMemory() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
