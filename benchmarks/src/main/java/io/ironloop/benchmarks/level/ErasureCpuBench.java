package io.ironloop.benchmarks.level;

import io.ironloop.benchmarks.Medians;
import io.ironloop.core.level.ErasureCode;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Encode throughput per core of the erasure codes, measured in this thread's CPU time rather than wall time, so
 * that a machine shared with other work still gives the figure one core reaches: data bytes encoded per CPU
 * second, for XOR over k and RS(k, m), with {@code System.arraycopy} of the same bytes as the reference. Each
 * figure is the median of interleaved repetitions after a warm-up. Prints one JSON object.
 *
 * <pre>java -cp 'benchmarks/target/classes:benchmarks/target/lib/*' io.ironloop.benchmarks.level.ErasureCpuBench [k m MiB reps]</pre>
 */
public final class ErasureCpuBench {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private ErasureCpuBench() {
    }

    public static void main(String[] args) {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int m = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int shard = (args.length > 2 ? Integer.parseInt(args[2]) : 1) << 20;
        int reps = args.length > 3 ? Integer.parseInt(args[3]) : 7;
        Random random = new Random(42);
        byte[][] data = new byte[k][shard];
        for (byte[] d : data) {
            random.nextBytes(d);
        }
        ErasureCode xor = ErasureCode.xor(k);
        ErasureCode rs = ErasureCode.cauchy(k, m);
        byte[][] p1 = new byte[1][shard];
        byte[][] pm = new byte[m][shard];
        byte[] copy = new byte[k * shard];
        List<Double> xorGbps = new ArrayList<>();
        List<Double> rsGbps = new ArrayList<>();
        List<Double> memcpyGbps = new ArrayList<>();
        long bytes = (long) k * shard;
        int inner = Math.max(1, (int) (256L * 1024 * 1024 / bytes)); // about 256 MiB of data per figure
        for (int rep = -1; rep < reps; rep++) { // -1: warm-up
            double x = cpuGbps(bytes * inner, () -> {
                for (int n = 0; n < inner; n++) {
                    xor.encode(data, p1, 0, shard);
                }
            });
            double r = cpuGbps(bytes * inner, () -> {
                for (int n = 0; n < inner; n++) {
                    rs.encode(data, pm, 0, shard);
                }
            });
            double c = cpuGbps(bytes * inner, () -> {
                for (int n = 0; n < inner; n++) {
                    for (int j = 0; j < k; j++) {
                        System.arraycopy(data[j], 0, copy, j * shard, shard);
                    }
                }
            });
            if (rep >= 0) {
                xorGbps.add(x);
                rsGbps.add(r);
                memcpyGbps.add(c);
            }
        }
        double xg = Medians.median(xorGbps.stream().mapToDouble(Double::doubleValue).toArray());
        double rg = Medians.median(rsGbps.stream().mapToDouble(Double::doubleValue).toArray());
        double mg = Medians.median(memcpyGbps.stream().mapToDouble(Double::doubleValue).toArray());
        System.out.printf(Locale.ROOT, "{\"k\": %d, \"m\": %d, \"shard_bytes\": %d, \"repetitions\": %d, \"xor_encode_gbps\": %.3f, "
                + "\"rs_encode_gbps\": %.3f, \"memcpy_gbps\": %.3f, \"xor_encode_target_met\": %b, \"rs_encode_target_met\": %b}%n",
                k, m, shard, reps, xg, rg, mg, xg >= 1.0, rg >= 1.0);
    }

    /** Bytes per CPU nanosecond of this thread while {@code work} runs, i.e. GB/s of one core (also {@code bench levels}'s encode figures). */
    static double cpuGbps(long bytes, Runnable work) {
        long start = CPU.getCurrentThreadCpuTime();
        work.run();
        return bytes / (double) (CPU.getCurrentThreadCpuTime() - start);
    }
}
