package io.ironloop.benchmarks.group;

import io.ironloop.benchmarks.ChildMain;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.GroupListener;
import io.ironloop.group.HeartbeatArrangement;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.internal.Diagnostics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One rank JVM of {@code ironloop bench group}, started by {@link RankJob} with the launcher's environment
 * contract. Prints machine-readable lines on standard output (logs go to standard error) and halts when
 * its standard input closes, so it never outlives the benchmark.
 *
 * <p>Arguments: {@code INTERVAL_MS TIMEOUT_MS SCENARIO ...}:
 * <ul>
 *   <li>{@code perf REPS LAT_ITERS ALLREDUCE_BYTES P2P_BYTES MSG_BYTES HB_WINDOWS}: heartbeat windows while
 *       idle, then per repetition (after {@value #WARMUP_ROUNDS} unmeasured ones) allreduce latency, allreduce bandwidth and the
 *       rank 0 → 1 transfer through the group and through a raw {@link SocketChannel}, in alternating order.
 *       Rank 0 prints {@code RESULT key=v,v,... ...}.
 *   <li>{@code detect leader|next}: prints {@code READY rank leader victim}; the victim idles, the others
 *       block in an allreduce that cannot complete without it and print {@code FAILED epochMillis} when it
 *       throws {@link ProcessFailedException}.
 *   <li>{@code heartbeats HB_WINDOWS}: rank 0 prints {@code HEARTBEATS median w1,w2,...}.
 * </ul>
 */
public final class BenchRank {
    private static final int DATA = 1;
    private static final int ACK = 2;
    /** Unmeasured rounds of every measurement before the measured repetitions (the JIT compiles the paths). */
    static final int WARMUP_ROUNDS = 3;

    private BenchRank() {
    }

    public static void main(String[] args) {
        ChildMain.run(args, BenchRank::run);
    }

    private static void run(String[] a) throws Exception {
        Duration interval = Duration.ofMillis(Long.parseLong(a[0]));
        // IRONLOOP_GROUP_SHARED_MEMORY=false in the bench's environment measures the message path between these ranks too
        boolean sharedMemory = io.ironloop.config.Parameters.load(io.ironloop.config.ParameterTable.of(GroupKeys.ALL), null, System.getenv(),
                java.util.Map.of()).get(GroupKeys.GROUP_SHARED_MEMORY);
        GroupConfig cfg = GroupConfig.builder().arrangement(HeartbeatArrangement.STAR).heartbeatInterval(interval)
                .heartbeatTimeout(Duration.ofMillis(Long.parseLong(a[1]))).joinTimeout(Duration.ofSeconds(120)).sharedMemory(sharedMemory)
                .build();
        ProcessGroup g = ProcessGroups.join(cfg, GroupListener.NONE);
        switch (a[2]) {
            case "perf" -> perf(g, Integer.parseInt(a[3]), Integer.parseInt(a[4]), Integer.parseInt(a[5]), Long.parseLong(a[6]),
                    Integer.parseInt(a[7]), Integer.parseInt(a[8]), interval);
            case "detect" -> detect(g, a[3]);
            case "heartbeats" -> {
                double[] w = heartbeatWindows(g, Integer.parseInt(a[3]), interval);
                if (g.rank() == 0) {
                    System.out.println("HEARTBEATS " + median(w) + " " + csv(w));
                }
            }
            default -> throw new IllegalArgumentException("unknown scenario " + a[2]);
        }
        g.close();
    }

    private static void detect(ProcessGroup g, String victimSpec) throws InterruptedException {
        int victim = victimSpec.equals("leader") ? g.leader() : (g.leader() + 1) % g.size();
        g.barrier();
        System.out.println("READY " + g.rank() + " " + g.leader() + " " + victim);
        if (g.rank() != victim) {
            try {
                g.allreduce(new double[] {1}, ReduceOp.SUM); // cannot complete: the victim never joins it
                System.out.println("NOFAILURE");
            } catch (ProcessFailedException e) {
                System.out.println("FAILED " + System.currentTimeMillis() + " " + e.failedRanks());
            }
        }
        new CountDownLatch(1).await(); // until the benchmark kills this job
    }

    /**
     * Heartbeat messages received on the wire by all ranks together, per interval, over {@code windows}
     * consecutive intervals (each rank's count scaled by the interval over the window it actually
     * measured). Every rank returns the array.
     */
    static double[] heartbeatWindows(ProcessGroup g, int windows, Duration interval) throws InterruptedException {
        g.barrier();
        TimeUnit.NANOSECONDS.sleep(interval.toNanos()); // one interval for every heartbeat task to be running
        g.barrier();
        long[] counts = new long[windows + 1];
        long[] times = new long[windows + 1];
        long start = System.nanoTime();
        for (int k = 0; k <= windows; k++) {
            long due = start + k * interval.toNanos();
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // a measurement window, not synchronisation
            }
            times[k] = System.nanoTime();
            counts[k] = Diagnostics.counts(g).heartbeatsReceived();
        }
        double[] mine = new double[windows];
        for (int k = 0; k < windows; k++) {
            mine[k] = (counts[k + 1] - counts[k]) * (double) interval.toNanos() / (times[k + 1] - times[k]);
        }
        return g.allreduce(mine, ReduceOp.SUM);
    }

    private static void perf(ProcessGroup g, int reps, int latIters, int allreduceBytes, long p2pBytes, int msgBytes, int hbWindows,
            Duration interval) throws Exception {
        int rank = g.rank();
        double[] hb = heartbeatWindows(g, hbWindows, interval);
        ServerSocketChannel server = null;
        long port = 0;
        if (rank == 1) {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = server.socket().getLocalPort();
        }
        port = g.broadcast(new long[] {port}, 1)[0];
        SocketChannel raw = null;
        if (rank == 0) {
            raw = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) port));
        } else if (rank == 1) {
            raw = server.accept();
            server.close();
        }
        if (raw != null) {
            raw.socket().setTcpNoDelay(true);
        }
        double[] big = new double[allreduceBytes / Double.BYTES];
        for (int i = 0; i < big.length; i++) {
            big[i] = rank + i * 1e-9;
        }
        byte[] msg = new byte[msgBytes];
        Arrays.fill(msg, (byte) rank);
        ByteBuffer rawBuf = raw == null ? null : ByteBuffer.allocateDirect(msgBytes);
        long messages = p2pBytes / msgBytes;
        List<Double> lat = new ArrayList<>();
        List<Double> bw = new ArrayList<>();
        List<Double> bwCpu = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> refs = new ArrayList<>();
        for (int rep = -WARMUP_ROUNDS; rep < reps; rep++) {
            g.barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < latIters; i++) {
                g.allreduce(1.0, ReduceOp.SUM);
            }
            double latency = (System.nanoTime() - t0) / 1e9 / latIters;
            g.barrier();
            long cpu0 = processCpuNanos();
            t0 = System.nanoTime();
            g.allreduce(big, ReduceOp.SUM);
            long elapsed = System.nanoTime() - t0;
            long cpu = processCpuNanos() - cpu0;
            double allreduce = g.allreduce(elapsed / 1e9, ReduceOp.MAX); // the slowest rank's time
            double allreduceCpu = g.allreduce(cpu / 1e9, ReduceOp.SUM); // every thread of every rank JVM
            double group;
            double reference;
            if (rep % 2 == 0) {
                group = groupTransfer(g, messages, msg);
                reference = rawTransfer(g, raw, rawBuf, p2pBytes, messages);
            } else {
                reference = rawTransfer(g, raw, rawBuf, p2pBytes, messages);
                group = groupTransfer(g, messages, msg);
            }
            if (rep >= 0) {
                lat.add(latency);
                bw.add(allreduce);
                bwCpu.add(allreduceCpu);
                ours.add(group);
                refs.add(reference);
            }
        }
        if (raw != null) {
            raw.close();
        }
        if (rank == 0) {
            System.out.println("RESULT latency_s=" + csv(lat) + " allreduce_s=" + csv(bw) + " allreduce_cpu_s=" + csv(bwCpu) + " p2p_s=" + csv(ours) + " raw_s=" + csv(refs)
                    + " heartbeats=" + csv(hb));
        }
        g.barrier();
    }

    /** CPU time of this JVM so far (all its threads: the group's readers, the JIT, the garbage collector). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Rank 0 sends {@code messages} messages to rank 1 through the group; returns rank 0's time until rank 1's ack. */
    private static double groupTransfer(ProcessGroup g, long messages, byte[] msg) {
        g.barrier();
        double seconds = 0;
        if (g.rank() == 0) {
            long t0 = System.nanoTime();
            for (long k = 0; k < messages; k++) {
                g.send(1, DATA, msg);
            }
            g.receive(1, ACK);
            seconds = (System.nanoTime() - t0) / 1e9;
        } else if (g.rank() == 1) {
            for (long k = 0; k < messages; k++) {
                g.receive(0, DATA);
            }
            g.send(0, ACK, new byte[1]);
        }
        g.barrier();
        return seconds;
    }

    /** The same transfer over a blocking loopback SocketChannel with a direct buffer ({@link RawTcp}, the raw TCP reference). */
    private static double rawTransfer(ProcessGroup g, SocketChannel ch, ByteBuffer buf, long bytes, long messages) throws IOException {
        g.barrier();
        double seconds = 0;
        if (g.rank() == 0) {
            ByteBuffer ack = ByteBuffer.allocateDirect(1);
            long t0 = System.nanoTime();
            RawTcp.write(ch, buf, messages);
            while (ack.hasRemaining()) {
                if (ch.read(ack) < 0) {
                    throw new IOException("raw reference connection closed by rank 1");
                }
            }
            seconds = (System.nanoTime() - t0) / 1e9;
        } else if (g.rank() == 1) {
            RawTcp.read(ch, buf, bytes);
            ByteBuffer ack = ByteBuffer.allocateDirect(1);
            ack.put((byte) 1).flip();
            while (ack.hasRemaining()) {
                ch.write(ack);
            }
        }
        g.barrier();
        return seconds;
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String csv(double[] values) {
        StringJoiner j = new StringJoiner(",");
        for (double v : values) {
            j.add(Double.toString(v));
        }
        return j.toString();
    }

    private static String csv(List<Double> values) {
        return csv(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
