package io.ironloop.benchmarks.recovery;

import io.ironloop.benchmarks.Medians;
import io.ironloop.benchmarks.group.RankJob;
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
import java.util.concurrent.TimeUnit;

/**
 * {@code ironloop bench recovery}: in-memory protection and recovery inside the job with real rank JVMs on
 * loopback, against references measured in the same run.
 * <ul>
 *   <li>one job of N ranks ({@link RecoveryRank} {@code perf}): the partner copy against raw TCP between the same
 *       JVMs, the live heap with both buffers held, and a block loop's snapshot blocking time against memcpy;</li>
 *   <li>per repetition, two jobs, interleaved: N ranks, and N ranks plus one spare; in each, {@code kill -9} of
 *       world rank 1 while the others wait in a collective, and the survivors' recovery timings.</li>
 * </ul>
 * Progress goes to {@code progress}; rank logs to a temporary directory, deleted unless something failed.
 */
public final class RecoveryBench {
    /** FTI's level 2 (local file + partner copy) on this machine, GB/s; the target is three times that. */
    public static final double FTI_L2_GBPS = 0.62;
    /** The world rank killed (not the leader). */
    static final int VICTIM = 1;
    private static final long EVERY = 5;
    private static final long KILL_AT = 7;
    private static final long STEPS = 10;

    /**
     * What to measure.
     *
     * @param ranks computing ranks (at least 2; the spare jobs add one)
     * @param size bytes of state per rank, a positive multiple of 1 MiB
     * @param block bytes per block (snapshot image), a multiple of 8
     * @param repetitions measured repetitions of every figure (after one warm-up)
     * @param interval heartbeat interval
     * @param timeout heartbeat timeout
     */
    public record Options(int ranks, long size, int block, int repetitions, Duration interval, Duration timeout) {
        public Options {
            if (ranks < 2) {
                throw new IllegalArgumentException("the recovery benchmark needs at least 2 ranks, not " + ranks);
            }
            if (size < (1 << 20) || size % (1 << 20) != 0) {
                throw new IllegalArgumentException("the size per rank must be a positive multiple of 1 MiB, not " + size + " bytes");
            }
            if (block < Double.BYTES || block % Double.BYTES != 0 || block > size) {
                throw new IllegalArgumentException("the block size must be a multiple of 8 bytes up to the size, not " + block);
            }
            if (repetitions < 1) {
                throw new IllegalArgumentException("repetitions must be positive");
            }
        }

        /** SIZE per rank in blocks of 16 MiB (fewer, larger ones below 64 MiB: at least 4 blocks per rank), 1 s / 5 s detection. */
        public static Options of(int ranks, long size, int repetitions) {
            int block = (int) Math.min(16L << 20, Math.max(Double.BYTES, size / 4 / Double.BYTES * Double.BYTES));
            return new Options(ranks, size, block, repetitions, Duration.ofSeconds(1), Duration.ofSeconds(5));
        }
    }

    private final Options o;
    private final PrintWriter progress;
    private final Path logs;
    private final String runId = Long.toString(ProcessHandle.current().pid(), 36) + Long.toString(System.currentTimeMillis() % 100_000, 36);
    private int jobs;

    private RecoveryBench(Options o, PrintWriter progress, Path logs) {
        this.o = o;
        this.progress = progress;
        this.logs = logs;
    }

    /**
     * Bytes of memory the rank JVMs of one job use at their peak, all together: N survivors' state of N/(N-1) ranks
     * × memory factor 5, plus the JVMs themselves (the maximum heaps are larger, for the garbage of the copies).
     */
    public static long memoryInUse(Options o) {
        return o.ranks() * (7 * o.size() + (128L << 20));
    }

    /**
     * Each rank's maximum heap, and so its direct-memory limit, where the snapshot images live. A survivor without
     * spare holds N/(N-1) of a rank's state × 5 at its next snapshot, and right after a recovery, until that snapshot
     * commits, the old committed copies too; the performance job adds the raw reference's 2 × SIZE.
     */
    private static long heapBytes(Options o) {
        return 10 * o.size() + (512L << 20);
    }

    /**
     * Runs the benchmark and returns its figures (keys as in the benchmark README).
     *
     * @throws IOException if a job could not be started or did not report (the rank logs are kept)
     */
    public static Map<String, Object> run(Options o, PrintWriter progress) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory("ironloop-bench-recovery");
        RecoveryBench b = new RecoveryBench(o, progress, logs);
        Map<String, Object> figures;
        try {
            figures = b.measure();
        } catch (IOException | RuntimeException e) {
            progress.println("bench recovery: rank logs kept in " + logs);
            throw e;
        }
        if (Boolean.getBoolean("ironloop.bench.keepLogs")) {
            progress.println("bench recovery: rank logs (with their GC logs) kept in " + logs);
            return figures;
        }
        try (var files = Files.list(logs)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(logs);
        return figures;
    }

    private Map<String, Object> measure() throws IOException, InterruptedException {
        long started = System.nanoTime();
        Map<String, double[]> perf = perf();
        progress.printf("bench recovery: warm-up kill job%n");
        kill(false);
        List<Kill> plain = new ArrayList<>();
        List<Kill> spare = new ArrayList<>();
        for (int i = 0; i < o.repetitions(); i++) {
            Kill a = kill(false);
            Kill b = kill(true);
            plain.add(a);
            spare.add(b);
            progress.printf("bench recovery: kill %d/%d: restore + rebalance %.3f s (with a spare %.3f s), kill → next iteration %.2f s "
                    + "(%.2f s), detection %.2f s (%.2f s)%n", i + 1, o.repetitions(), a.restoreRebalance, b.restoreRebalance, a.toNext,
                    b.toNext, a.detect, b.detect);
        }

        double gb = o.size() / 1e9;
        double partnerS = Medians.median(perf.get("partner_s"));
        double rawS = Medians.median(perf.get("raw_s"));
        double rawCachedS = Medians.median(perf.get("raw_cached_s"));
        double blockingS = Medians.median(perf.get("blocking_s"));
        double captureS = Medians.median(perf.get("capture_s"));
        double memcpyS = Medians.median(perf.get("memcpy_s"));
        double partnerGbps = gb / partnerS;
        double rawGbps = gb / rawS;
        double memoryFactor = perf.get("memory_heap")[0];
        double rssFactor = perf.get("memory_rss")[0];
        double formula = perf.get("formula")[0];

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ranks", o.ranks());
        r.put("size_bytes", o.size());
        r.put("block_bytes", o.block());
        r.put("repetitions", o.repetitions());
        r.put("partner_over_raw_tcp", partnerGbps / rawGbps);
        r.put("partner_gbps", partnerGbps);
        r.put("raw_tcp_gbps", rawGbps);
        r.put("partner_s", partnerS);
        r.put("raw_tcp_s", rawS);
        r.put("raw_tcp_cached_gbps", gb / rawCachedS);
        r.put("partner_over_raw_tcp_cached", partnerGbps / (gb / rawCachedS));
        r.put("partner_aggregate_gbps", partnerGbps * o.ranks());
        r.put("blocking_over_memcpy", blockingS / memcpyS);
        r.put("blocking_s", blockingS);
        r.put("memcpy_s", memcpyS);
        r.put("capture_over_memcpy", captureS / memcpyS);
        r.put("capture_s", captureS);
        r.put("memory_factor_measured", memoryFactor);
        r.put("memory_factor_formula", formula);
        r.put("rss_factor_measured", rssFactor);
        put(r, "", plain);
        put(r, "spare_", spare);
        r.put("partner_target_met", partnerGbps / rawGbps >= 0.7);
        r.put("partner_gbps_target_met", partnerGbps >= 3 * FTI_L2_GBPS);
        r.put("blocking_target_met", blockingS / memcpyS <= 1.5);
        r.put("restore_rebalance_target_met", median(plain, k -> k.restoreRebalance) <= 1.0);
        r.put("kill_to_next_iteration_target_met", median(plain, k -> k.toNext) <= median(plain, k -> k.detect) + 1.0);
        r.put("spare_restore_rebalance_target_met", median(spare, k -> k.restoreRebalance) <= 1.0);
        r.put("spare_kill_to_next_iteration_target_met", median(spare, k -> k.toNext) <= median(spare, k -> k.detect) + 1.0);
        r.put("memory_factor_target_met", memoryFactor <= 1.1 * formula);
        r.put("jobs", jobs);
        r.put("elapsed_s", (System.nanoTime() - started) / 1e9);
        return r;
    }

    private static void put(Map<String, Object> r, String prefix, List<Kill> kills) {
        r.put(prefix + "detect_s", median(kills, k -> k.detect));
        r.put(prefix + "agree_s", median(kills, k -> k.agree));
        r.put(prefix + "shrink_s", median(kills, k -> k.shrink));
        r.put(prefix + "restore_s", median(kills, k -> k.restore));
        r.put(prefix + "rebalance_s", median(kills, k -> k.rebalance));
        r.put(prefix + "restore_rebalance_s", median(kills, k -> k.restoreRebalance));
        r.put(prefix + "reprotect_s", median(kills, k -> k.reprotect));
        r.put(prefix + "kill_to_next_iteration_s", median(kills, k -> k.toNext));
        r.put(prefix + "after_detect_s", median(kills, k -> k.toNext - k.detect));
    }

    private static double median(List<Kill> kills, java.util.function.ToDoubleFunction<Kill> f) {
        return Medians.median(kills.stream().mapToDouble(f).toArray());
    }

    private String jobId(String what) {
        return "bench-recovery-" + what + "-" + runId + "-" + (++jobs);
    }

    private List<String> jvm() {
        return List.of("-Xmx" + (heapBytes(o) >> 20) + "m", "-XX:+UseG1GC", "-Xshare:auto", "-Xlog:gc:stderr");
    }

    /** Heartbeat timeout of the performance job, which measures no detection: long, so no GC pause or starved heartbeat under load fails it. */
    private static final Duration PERF_TIMEOUT = Duration.ofSeconds(60);

    private List<String> args(String... scenario) {
        Duration timeout = scenario[0].equals("perf") ? PERF_TIMEOUT : o.timeout();
        List<String> a = new ArrayList<>(List.of(Long.toString(o.interval().toMillis()), Long.toString(timeout.toMillis())));
        a.addAll(Arrays.asList(scenario));
        return a;
    }

    /** Generous: JVM start and formation, plus a few seconds per GiB moved per round. */
    private Duration budget(int rounds) {
        return Duration.ofSeconds(90 + 5L * o.ranks() + (long) Math.ceil(rounds * 20.0 * o.size() / (1L << 30)));
    }

    private Map<String, double[]> perf() throws IOException, InterruptedException {
        progress.printf("bench recovery: %d ranks × %d MiB: partner copy against raw TCP, memory, blocking against memcpy (%d warm-up "
                + "rounds, %d repetitions)%n", o.ranks(), o.size() >> 20, RecoveryRank.WARMUP, o.repetitions());
        try (RankJob job = new RankJob(o.ranks(), jobId("perf"), logs, jvm(), RecoveryRank.class, args("perf", Long.toString(o.size()),
                Integer.toString(o.block()), Integer.toString(o.repetitions())))) {
            job.await(budget(4 * (o.repetitions() + RecoveryRank.WARMUP + 1)), () -> job.line(0, "RESULT").isPresent()
                    && job.all("MEMORY", -1), "performance results");
            Map<String, double[]> m = new HashMap<>();
            for (String kv : job.line(0, "RESULT").orElseThrow().substring("RESULT ".length()).split(" ")) {
                String[] p = kv.split("=", 2);
                m.put(p[0], Arrays.stream(p[1].split(",")).mapToDouble(Double::parseDouble).toArray());
            }
            double heap = 0;
            double rss = 0;
            for (int r = 0; r < job.size(); r++) {
                String[] f = job.line(r, "MEMORY").orElseThrow().split(" ");
                heap = Math.max(heap, Double.parseDouble(f[1]));
                rss = Math.max(rss, Double.parseDouble(f[2]));
            }
            m.put("memory_heap", new double[] {heap});
            m.put("memory_rss", new double[] {rss});
            progress.printf("bench recovery: partner copy %.3f s, raw TCP %.3f s (medians); memory factor %.2f (formula %.0f)%n",
                    Medians.median(m.get("partner_s")), Medians.median(m.get("raw_s")), heap, m.get("formula")[0]);
            return m;
        }
    }

    /** The survivors' figures of one kill, each the slowest survivor's, in seconds. */
    private record Kill(double detect, double agree, double shrink, double restore, double rebalance, double restoreRebalance,
            double reprotect, double toNext) {
    }

    private Kill kill(boolean withSpare) throws IOException, InterruptedException {
        int n = o.ranks() + (withSpare ? 1 : 0);
        try (RankJob job = new RankJob(n, jobId(withSpare ? "spare" : "kill"), logs, jvm(), RecoveryRank.class, args("kill",
                Long.toString(o.size()), Integer.toString(o.block()), withSpare ? "1" : "0", Long.toString(EVERY), Long.toString(KILL_AT),
                Long.toString(STEPS), Integer.toString(VICTIM)))) {
            job.await(budget(4), () -> job.line(VICTIM, "KILLME").isPresent(), "KILLME from rank " + VICTIM);
            TimeUnit.MILLISECONDS.sleep(300); // lets the survivors block in the next collective (pacing, not synchronisation)
            long t0 = RecoveryRank.epochMicros();
            job.kill(VICTIM);
            job.await(budget(4), () -> job.all("DONE", VICTIM), "DONE after the kill of rank " + VICTIM);
            double detect = 0;
            double agree = 0;
            double shrink = 0;
            double restore = 0;
            double rebalance = 0;
            double both = 0;
            double reprotect = 0;
            double next = 0;
            for (int r = 0; r < n; r++) {
                if (r == VICTIM) {
                    continue;
                }
                long[] s = longs(job, r, "SHRUNK");
                long[] rec = longs(job, r, "RECOVERED");
                long[] re = longs(job, r, "RESNAP");
                long[] nx = longs(job, r, "NEXT");
                String[] done = job.line(r, "DONE").orElseThrow().split(" ");
                if (!done[1].equals("1")) {
                    throw new IOException("rank " + r + " recovered " + done[1] + " times, not once: " + job.lines(r, ""));
                }
                detect = Math.max(detect, (s[1] - s[2] - t0) / 1e6);
                agree = Math.max(agree, rec[2] / 1e6);
                shrink = Math.max(shrink, rec[3] / 1e6);
                restore = Math.max(restore, rec[4] / 1e6);
                rebalance = Math.max(rebalance, rec[5] / 1e6);
                both = Math.max(both, (rec[4] + rec[5]) / 1e6);
                reprotect = Math.max(reprotect, re[2] / 1e6);
                next = Math.max(next, (nx[1] - t0) / 1e6);
                if (withSpare && rec[6] != 1) {
                    throw new IOException("rank " + r + " reports " + rec[6] + " spares used, not 1");
                }
            }
            return new Kill(detect, agree, shrink, restore, rebalance, both, reprotect, next);
        }
    }

    /** The numeric fields of rank {@code r}'s first line starting with {@code prefix} (index 0: unused). */
    private static long[] longs(RankJob job, int r, String prefix) throws IOException {
        String line = job.line(r, prefix + " ").orElseThrow(() -> new IOException("rank " + r + " printed no " + prefix + " line: "
                + job.lines(r, "")));
        String[] f = line.split(" ");
        long[] v = new long[f.length];
        for (int k = 1; k < f.length; k++) {
            try {
                v[k] = Long.parseLong(f[k]);
            } catch (NumberFormatException notANumber) {
                v[k] = -1;
            }
        }
        return v;
    }
}
