package io.ironloop.benchmarks.level;

import io.ironloop.core.level.ErasureCode;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode throughput of the erasure codes on one thread, in the chunks the erasure level uses (1 MiB
 * per shard): {@code xor} is XOR parity over k shards, {@code rs} the Cauchy Reed–Solomon code RS(k, m).
 * The aux counter {@code dataBytes} is data bytes encoded (or rebuilt shards' bytes decoded) per second — the
 * figure the 1 GB/s-per-core target is about; {@code memcpy} copies the same data bytes, for reference.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class ErasureBenchmark {
    @Param({"xor", "rs"})
    public String code;

    @Param({"4"})
    public int k;

    @Param({"2"})
    public int m;

    @Param({"1048576"})
    public int shardBytes;

    private ErasureCode erasure;
    private byte[][] data;
    private byte[][] parity;
    private byte[][] shards;
    private boolean[] present;
    private byte[] copy;

    /** Bytes per second, as JMH reports operation counters. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(org.openjdk.jmh.annotations.Scope.Thread)
    public static class Bytes {
        public long dataBytes;
    }

    @Setup(Level.Trial)
    public void setUp() {
        erasure = code.equals("xor") ? ErasureCode.xor(k) : ErasureCode.cauchy(k, m);
        int mm = erasure.parityShards();
        Random random = new Random(42);
        data = new byte[k][shardBytes];
        for (byte[] d : data) {
            random.nextBytes(d);
        }
        parity = new byte[mm][shardBytes];
        erasure.encode(data, parity, 0, shardBytes);
        shards = new byte[k + mm][];
        present = new boolean[k + mm];
        for (int s = 0; s < k + mm; s++) {
            shards[s] = s < k ? data[s].clone() : parity[s - k].clone();
            present[s] = s >= mm; // the first m data shards lost: the costliest decode
        }
        copy = new byte[k * shardBytes];
    }

    @Benchmark
    public byte[][] encode(Bytes bytes) {
        erasure.encode(data, parity, 0, shardBytes);
        bytes.dataBytes += (long) k * shardBytes;
        return parity;
    }

    @Benchmark
    public byte[][] decode(Bytes bytes) {
        erasure.decode(shards, present, 0, shardBytes);
        bytes.dataBytes += (long) k * shardBytes;
        return shards;
    }

    @Benchmark
    public byte[] memcpy(Bytes bytes) {
        for (int j = 0; j < k; j++) {
            System.arraycopy(data[j], 0, copy, j * shardBytes, shardBytes);
        }
        bytes.dataBytes += (long) k * shardBytes;
        return copy;
    }
}
