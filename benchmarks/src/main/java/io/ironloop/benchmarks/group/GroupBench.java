package io.ironloop.benchmarks.group;

import io.ironloop.benchmarks.Medians;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code ironloop bench group}: the process group with real rank JVMs on loopback, against references
 * measured in the same run.
 * <ul>
 *   <li>one job of N ranks: heartbeat messages per interval counted on the wire while idle, then per
 *       repetition (after warm-up rounds) allreduce latency (8 bytes), allreduce bandwidth, and a rank 0 → 1
 *       transfer in 1 MiB messages through the group and through a raw blocking {@code SocketChannel} with
 *       direct buffers between the same two JVMs, in alternating order;</li>
 *   <li>one job of N ranks per failure: {@code kill -9} of a non-leader, of the leader, {@code SIGSTOP} of a
 *       non-leader, interleaved, each measured from the kill(2) call until the last survivor has thrown
 *       {@code ProcessFailedException};</li>
 *   <li>with {@code scaling}: heartbeat messages per interval at 4, 8 and 16 ranks.</li>
 * </ul>
 * Progress goes to {@code progress} (standard error); rank logs to a temporary directory, deleted
 * unless something failed.
 */
public final class GroupBench {
    /** Rank counts of the heartbeat scaling measurement. */
    public static final int[] SCALING = {4, 8, 16};

    /**
     * What to measure.
     *
     * @param ranks ranks of the performance and detection jobs (at least 2)
     * @param repetitions measured repetitions of the performance figures (after one warm-up)
     * @param detectRepetitions measured repetitions of each detection figure
     * @param warmup whether one unmeasured failure job runs first
     * @param latencyIterations allreduces per latency repetition
     * @param allreduceBytes bytes of doubles per bandwidth allreduce
     * @param p2pBytes bytes per point-to-point transfer
     * @param messageBytes bytes per point-to-point message
     * @param interval heartbeat interval ({@code SLEEP_THREAD_TIME})
     * @param timeout detection timeout ({@code TIME_MAX_WAIT})
     * @param heartbeatWindows intervals over which heartbeats are counted (median of the windows)
     * @param scaling whether to count heartbeats at 4, 8 and 16 ranks too
     * @param mpiReference whether to measure Open MPI's allreduce of the same size beside ours, where it is installed
     */
    public record Options(int ranks, int repetitions, int detectRepetitions, boolean warmup, int latencyIterations, int allreduceBytes,
            long p2pBytes, int messageBytes, Duration interval, Duration timeout, int heartbeatWindows, boolean scaling,
            boolean mpiReference) {
        public Options {
            if (ranks < 2) {
                throw new IllegalArgumentException("the group benchmark needs at least 2 ranks, not " + ranks);
            }
            if (repetitions < 1 || detectRepetitions < 1 || latencyIterations < 1 || heartbeatWindows < 1) {
                throw new IllegalArgumentException("repetitions, iterations and windows must be positive");
            }
            if (messageBytes < 1 || p2pBytes < messageBytes || p2pBytes % messageBytes != 0) {
                throw new IllegalArgumentException("the transfer (" + p2pBytes + " bytes) must be a positive multiple of the message size ("
                        + messageBytes + ")");
            }
            if (allreduceBytes < Double.BYTES || allreduceBytes % Double.BYTES != 0) {
                throw new IllegalArgumentException("the allreduce size must be a positive multiple of 8 bytes, not " + allreduceBytes);
            }
            if (interval.compareTo(timeout) >= 0) {
                throw new IllegalArgumentException("the heartbeat interval " + interval + " must be below the timeout " + timeout);
            }
        }

        /** The figures: 8-byte and 64 MiB allreduces, 256 MiB in 1 MiB messages, 1 s / 5 s detection, 5 repetitions. */
        public static Options standard(int ranks, boolean scaling) {
            return new Options(ranks, 5, 5, true, 500, 64 << 20, 256L << 20, 1 << 20, Duration.ofSeconds(1), Duration.ofSeconds(5), 5, scaling, true);
        }

        /** A few seconds' worth of everything, to check that the benchmark works (not its figures). */
        public static Options quick(int ranks, boolean scaling) {
            return new Options(ranks, 2, 1, false, 20, 1 << 20, 8L << 20, 1 << 20, Duration.ofMillis(200), Duration.ofSeconds(1), 2, scaling, false);
        }
    }

    private final Options o;
    private final PrintWriter progress;
    private final Path logs;
    private final String runId = Long.toString(ProcessHandle.current().pid(), 36) + Long.toString(System.currentTimeMillis() % 100_000, 36);
    private int jobs;

    private GroupBench(Options o, PrintWriter progress, Path logs) {
        this.o = o;
        this.progress = progress;
        this.logs = logs;
    }

    /**
     * Runs the benchmark and returns its figures (keys as in the benchmark README).
     *
     * @throws IOException if a job could not be started or did not report (the rank logs are kept)
     */
    public static Map<String, Object> run(Options o, PrintWriter progress) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory("ironloop-bench-group");
        GroupBench b = new GroupBench(o, progress, logs);
        Map<String, Object> figures;
        try {
            figures = b.measure();
        } catch (IOException | RuntimeException e) {
            progress.println("bench group: rank logs kept in " + logs);
            throw e;
        }
        try (var files = Files.list(logs)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(logs);
        return figures;
    }

    /** Open MPI's allreduce of the same size on as many ranks, over TCP and over shared memory; empty without it. */
    private double[] mpiReference() throws IOException, InterruptedException {
        if (!o.mpiReference()) {
            return new double[0];
        }
        Optional<MpiAllreduce> mpi = MpiAllreduce.compile(progress);
        if (mpi.isEmpty()) {
            return new double[0];
        }
        try {
            double tcp = mpi.get().seconds("tcp,self", o.ranks(), o.allreduceBytes(), o.repetitions());
            double shm = mpi.get().seconds("vader,self", o.ranks(), o.allreduceBytes(), o.repetitions());
            progress.printf("bench group: Open MPI's MPI_Allreduce of %d MiB on %d ranks: %.3f s over TCP, %.3f s over shared memory%n",
                    o.allreduceBytes() >> 20, o.ranks(), tcp, shm);
            return new double[] {tcp, shm};
        } finally {
            mpi.get().delete();
        }
    }

    private Map<String, Object> measure() throws IOException, InterruptedException {
        long started = System.nanoTime();
        Map<String, double[]> perf = perf();
        double[] mpi = mpiReference(); // {TCP, shared memory} seconds, or empty: right after ours, at about the same load
        double[] kill = new double[o.detectRepetitions()];
        double[] leader = new double[o.detectRepetitions()];
        double[] hang = new double[o.detectRepetitions()];
        if (o.warmup()) {
            progress.printf("bench group: warm-up failure job: kill -9 of a non-leader: %.2f s%n", detect(Failure.KILL));
        }
        for (int i = 0; i < o.detectRepetitions(); i++) {
            kill[i] = detect(Failure.KILL);
            leader[i] = detect(Failure.KILL_LEADER);
            hang[i] = detect(Failure.HANG);
            progress.printf("bench group: detection %d/%d: kill -9 %.2f s, kill -9 of the leader %.2f s, SIGSTOP %.2f s%n",
                    i + 1, o.detectRepetitions(), kill[i], leader[i], hang[i]);
        }
        Map<String, Double> heartbeats = new LinkedHashMap<>();
        Map<Integer, Double> byRanks = new HashMap<>();
        byRanks.put(o.ranks(), Medians.median(perf.get("heartbeats")));
        if (o.scaling()) {
            for (int n : SCALING) {
                if (!byRanks.containsKey(n)) {
                    byRanks.put(n, heartbeats(n));
                }
            }
        }
        byRanks.keySet().stream().sorted().forEach(n -> heartbeats.put(Integer.toString(n), byRanks.get(n)));

        double latency = Medians.median(perf.get("latency_s"));
        double allreduce = Medians.median(perf.get("allreduce_s"));
        double p2p = o.p2pBytes() / 1e9 / Medians.median(perf.get("p2p_s"));
        double raw = o.p2pBytes() / 1e9 / Medians.median(perf.get("raw_s"));
        double killS = Medians.median(kill);
        double leaderS = Medians.median(leader);
        double hangS = Medians.median(hang);
        double intervalS = o.interval().toMillis() / 1000.0;
        double timeoutS = o.timeout().toMillis() / 1000.0;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ranks", o.ranks());
        r.put("repetitions", o.repetitions());
        r.put("detection_repetitions", o.detectRepetitions());
        r.put("heartbeat_interval_s", intervalS);
        r.put("heartbeat_timeout_s", timeoutS);
        r.put("p2p_over_raw_tcp", p2p / raw);
        r.put("p2p_gbps", p2p);
        r.put("raw_tcp_gbps", raw);
        r.put("p2p_bytes", o.p2pBytes());
        r.put("p2p_message_bytes", o.messageBytes());
        r.put("allreduce_latency_us", latency * 1e6);
        r.put("allreduce_latency_bytes", Double.BYTES);
        r.put("allreduce_bandwidth_gbps", o.allreduceBytes() / 1e9 / allreduce);
        r.put("allreduce_bandwidth_s", allreduce);
        r.put("allreduce_bandwidth_bytes", o.allreduceBytes());
        // on a machine with fewer cores than ranks, or loaded by others, the CPU time it costs says more than its wall time
        r.put("allreduce_cpu_s", Medians.median(perf.get("allreduce_cpu_s")));
        // each member must send (and receive) 2(P - 1)/P of the array, the least any allreduce moves: that traffic per
        // second, against raw TCP's bytes per second between two of the same JVMs
        double necessary = 2.0 * (o.ranks() - 1) / o.ranks() * o.allreduceBytes();
        r.put("allreduce_over_raw_tcp", necessary / 1e9 / allreduce / raw);
        if (mpi.length == 2) {
            r.put("mpi_allreduce_tcp_s", mpi[0]);
            r.put("mpi_allreduce_shm_s", mpi[1]);
            r.put("allreduce_over_mpi_tcp", mpi[0] / allreduce);
            r.put("allreduce_over_mpi_shm", mpi[1] / allreduce);
            r.put("allreduce_target_met", mpi[0] / allreduce >= 1.0);
        }
        r.put("detect_kill_s", killS);
        r.put("detect_kill_leader_s", leaderS);
        r.put("detect_hang_s", hangS);
        r.put("heartbeat_msgs_per_interval", heartbeats);
        r.put("p2p_target_met", p2p / raw >= 0.7);
        r.put("detect_kill_target_met", killS <= 2.0);
        r.put("detect_kill_leader_target_met", leaderS <= 2.5);
        r.put("detect_hang_target_met", hangS <= timeoutS + intervalS + 1.0);
        r.put("heartbeat_target_met", heartbeats.entrySet().stream()
                .allMatch(e -> e.getValue() <= 1.25 * 2 * (Integer.parseInt(e.getKey()) - 1)));
        r.put("jobs", jobs);
        r.put("elapsed_s", (System.nanoTime() - started) / 1e9);
        return r;
    }

    private String jobId(String what) {
        return "bench-" + what + "-" + runId + "-" + (++jobs);
    }

    private List<String> rankArgs(String... scenario) {
        List<String> a = new ArrayList<>(List.of(Long.toString(o.interval().toMillis()), Long.toString(o.timeout().toMillis())));
        a.addAll(Arrays.asList(scenario));
        return a;
    }

    private Duration formation(int n) {
        return Duration.ofSeconds(60 + 5L * n);
    }

    private Map<String, double[]> perf() throws IOException, InterruptedException {
        int heapMiB = Math.max(256, 6 * (o.allreduceBytes() >> 20) + 128);
        progress.printf("bench group: %d ranks: heartbeats, allreduce latency and bandwidth, point-to-point against raw TCP "
                + "(%d warm-up rounds, %d repetitions)%n", o.ranks(), BenchRank.WARMUP_ROUNDS, o.repetitions());
        try (RankJob job = new RankJob(o.ranks(), jobId("perf"), logs, heapMiB + "m", true, rankArgs("perf", Integer.toString(o.repetitions()),
                Integer.toString(o.latencyIterations()), Integer.toString(o.allreduceBytes()), Long.toString(o.p2pBytes()),
                Integer.toString(o.messageBytes()), Integer.toString(o.heartbeatWindows())))) {
            job.await(formation(o.ranks()).plusMinutes(10), () -> job.line(0, "RESULT").isPresent(), "performance results");
            Map<String, double[]> m = new HashMap<>();
            for (String kv : job.line(0, "RESULT").orElseThrow().substring("RESULT ".length()).split(" ")) {
                String[] p = kv.split("=", 2);
                m.put(p[0], Arrays.stream(p[1].split(",")).mapToDouble(Double::parseDouble).toArray());
            }
            return m;
        }
    }

    private enum Failure {
        KILL, KILL_LEADER, HANG
    }

    /** One job: fail a rank, return the seconds from the kill(2) call to the last survivor's ProcessFailedException. */
    private double detect(Failure f) throws IOException, InterruptedException {
        try (RankJob job = new RankJob(o.ranks(), jobId(f.name().toLowerCase(java.util.Locale.ROOT)), logs, "256m", false,
                rankArgs("detect", f == Failure.KILL_LEADER ? "leader" : "next"))) {
            job.await(formation(o.ranks()), () -> job.all("READY", -1), "READY");
            String[] ready = job.line(0, "READY").orElseThrow().split(" ");
            int victim = Integer.parseInt(ready[3]);
            TimeUnit.MILLISECONDS.sleep(300); // lets the survivors block in their allreduce (pacing, not synchronisation)
            long t0 = System.currentTimeMillis();
            if (f == Failure.HANG) {
                job.signal(victim, "STOP");
            } else {
                job.kill(victim);
            }
            job.await(o.timeout().multipliedBy(3).plusSeconds(30), () -> job.all("FAILED", victim), "FAILED after the failure of rank " + victim);
            long last = 0;
            for (int r = 0; r < job.size(); r++) {
                if (r != victim) {
                    last = Math.max(last, Long.parseLong(job.line(r, "FAILED").orElseThrow().split(" ")[1]));
                }
            }
            return (last - t0) / 1000.0;
        }
    }

    private double heartbeats(int n) throws IOException, InterruptedException {
        progress.printf("bench group: heartbeats on the wire at %d ranks%n", n);
        try (RankJob job = new RankJob(n, jobId("hb" + n), logs, "256m", false, rankArgs("heartbeats", Integer.toString(o.heartbeatWindows())))) {
            job.await(formation(n), () -> job.line(0, "HEARTBEATS").isPresent(), "heartbeat counts");
            double v = Double.parseDouble(job.line(0, "HEARTBEATS").orElseThrow().split(" ")[1]);
            progress.printf("bench group: %d ranks: %.2f heartbeat messages per interval%n", n, v);
            return v;
        }
    }
}
