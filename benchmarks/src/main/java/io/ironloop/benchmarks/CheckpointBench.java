package io.ironloop.benchmarks;

import io.ironloop.Folders;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ironloop bench checkpoint}: the engine's checkpoint and restore of SIZE bytes of double arrays
 * against references measured in the same run, interleaved, medians of every figure:
 * <ul>
 *   <li>blocking time of {@code checkpoint()} (the caller's copy into staging) against a memcpy of the same
 *       bytes into touched memory;</li>
 *   <li>persist throughput (from {@code checkpoint()} returning to the line being committed and durable)
 *       against a raw sequential {@code FileChannel} write + fsync of the same size to a new file;</li>
 *   <li>restore throughput (verified, into the registered arrays) against a raw read of the raw file that
 *       also copies the bytes into touched {@code double[]} arrays of the same sizes, the least any restore into
 *       arrays must do, both right after being written (same page-cache state): the restore target;</li>
 *   <li>supplementary: the same restore against a raw {@code FileChannel} read into one small buffer whose bytes
 *       are dropped;</li>
 *   <li>cold cache (when {@link PageCache} can drop it, i.e. as root on Linux; otherwise
 *       {@code cold_skipped_reason} says why): the restore and the raw read into arrays, each right after the
 *       page cache was dropped.</li>
 * </ul>
 * The arrays are refilled with new pseudo-random values before every repetition, so zero elision and
 * differential saving save nothing.
 */
public final class CheckpointBench {
    private static final int ARRAY_BYTES = 64 << 20;

    private CheckpointBench() {
    }

    /** Runs the benchmark and returns its figures (keys as in the benchmark README). */
    public static Map<String, Object> run(long sizeBytes, Path dir, int repetitions, boolean keep) throws IOException {
        if (sizeBytes < 8 || sizeBytes % 8 != 0) {
            throw new IllegalArgumentException("--size must be a positive multiple of 8 bytes: " + sizeBytes);
        }
        if (repetitions < 5) {
            throw new IllegalArgumentException("at least 5 repetitions are needed for a median: " + repetitions);
        }
        Files.createDirectories(dir);
        Path storeDir = dir.resolve("checkpoint");
        if (Files.exists(storeDir)) {
            throw new IllegalArgumentException(storeDir + " already exists: choose an empty --dir");
        }
        List<double[]> arrays = new ArrayList<>();
        for (long left = sizeBytes; left > 0; left -= ARRAY_BYTES) {
            arrays.add(new double[(int) (Math.min(left, ARRAY_BYTES) / 8)]);
        }
        List<double[]> memcpyTargets = arrays.stream().map(a -> new double[a.length]).toList();
        ByteBuffer ioBuffer = ByteBuffer.allocateDirect(RawDisk.BLOCK);
        double[] blocking = new double[repetitions];
        double[] memcpy = new double[repetitions];
        double[] persist = new double[repetitions];
        double[] rawWrite = new double[repetitions];
        double[] restore = new double[repetitions];
        double[] rawRead = new double[repetitions];
        double[] rawReadIntoArrays = new double[repetitions];
        double[] restoreCold = new double[repetitions];
        double[] rawReadCold = new double[repetitions];
        Optional<String> noCold = PageCache.unavailable();
        AtomicLong written = new AtomicLong();
        EngineListener countBytes = new EngineListener() {
            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                written.set(bytesWritten);
            }
        };
        long seed = 1;
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(storeDir), countBytes)) {
            for (int i = 0; i < arrays.size(); i++) {
                engine.protect("field-" + i, Scope.LOCAL, arrays.get(i));
            }
            for (int rep = -1; rep < repetitions; rep++) {
                for (double[] a : arrays) {
                    seed = fillRandom(a, seed);
                }
                // reference: memcpy into touched memory
                long t0 = System.nanoTime();
                for (int i = 0; i < arrays.size(); i++) {
                    System.arraycopy(arrays.get(i), 0, memcpyTargets.get(i), 0, arrays.get(i).length);
                }
                long t1 = System.nanoTime();
                engine.checkpoint(rep + 1L);
                long t2 = System.nanoTime();
                engine.awaitDurable();
                long t3 = System.nanoTime();
                Path raw = dir.resolve("raw-reference-" + (rep + 1) + ".bin");
                long t4 = System.nanoTime();
                RawDisk.writeAndSync(raw, sizeBytes, ioBuffer);
                long t5 = System.nanoTime();
                rawRead(raw, ioBuffer);
                long t6 = System.nanoTime();
                engine.restore();
                long t7 = System.nanoTime();
                rawReadIntoArrays(raw, ioBuffer, memcpyTargets);
                long t8 = System.nanoTime();
                // cold: both files were fsynced, so dropping the clean cache empties it of both
                double coldRestore = 0;
                double coldRaw = 0;
                if (noCold.isEmpty()) {
                    PageCache.drop();
                    long c0 = System.nanoTime();
                    engine.restore();
                    long c1 = System.nanoTime();
                    PageCache.drop();
                    long c2 = System.nanoTime();
                    rawReadIntoArrays(raw, ioBuffer, memcpyTargets);
                    long c3 = System.nanoTime();
                    coldRestore = (c1 - c0) / 1e9;
                    coldRaw = (c3 - c2) / 1e9;
                }
                Files.delete(raw);
                if (rep >= 0) {
                    memcpy[rep] = (t1 - t0) / 1e9;
                    blocking[rep] = (t2 - t1) / 1e9;
                    persist[rep] = (t3 - t2) / 1e9;
                    rawWrite[rep] = (t5 - t4) / 1e9;
                    rawRead[rep] = (t6 - t5) / 1e9;
                    restore[rep] = (t7 - t6) / 1e9;
                    rawReadIntoArrays[rep] = (t8 - t7) / 1e9;
                    restoreCold[rep] = coldRestore;
                    rawReadCold[rep] = coldRaw;
                }
            }
        }
        if (!keep) {
            Folders.deleteTree(storeDir);
        }
        double gb = sizeBytes / 1e9;
        Map<String, Object> r = new LinkedHashMap<>();
        double blockingOverMemcpy = Medians.median(blocking) / Medians.median(memcpy);
        double persistOverRaw = Medians.median(rawWrite) / Medians.median(persist);
        double restoreOverRaw = Medians.median(rawRead) / Medians.median(restore);
        r.put("size_bytes", sizeBytes);
        r.put("bytes_written", written.get());
        r.put("repetitions", repetitions);
        r.put("blocking_over_memcpy", blockingOverMemcpy);
        r.put("persist_over_raw_write", persistOverRaw);
        r.put("restore_over_raw_read", restoreOverRaw);
        double restoreOverIntoArrays = Medians.median(rawReadIntoArrays) / Medians.median(restore);
        r.put("restore_over_raw_read_into_arrays", restoreOverIntoArrays);
        r.put("blocking_s", Medians.median(blocking));
        r.put("memcpy_s", Medians.median(memcpy));
        r.put("persist_gbps", gb / Medians.median(persist));
        r.put("raw_write_gbps", gb / Medians.median(rawWrite));
        r.put("restore_gbps", gb / Medians.median(restore));
        r.put("raw_read_gbps", gb / Medians.median(rawRead));
        r.put("raw_read_into_arrays_gbps", gb / Medians.median(rawReadIntoArrays));
        if (noCold.isEmpty()) {
            double coldRatio = Medians.median(rawReadCold) / Medians.median(restoreCold);
            r.put("restore_cold_over_raw_read_cold", coldRatio);
            r.put("restore_cold_gbps", gb / Medians.median(restoreCold));
            r.put("raw_read_cold_gbps", gb / Medians.median(rawReadCold));
            r.put("restore_cold_target_met", coldRatio >= 0.9);
        } else {
            r.put("cold_skipped_reason", noCold.get());
        }
        r.put("blocking_target_met", blockingOverMemcpy <= 1.5);
        r.put("persist_target_met", persistOverRaw >= 0.9);
        r.put("restore_target_met", restoreOverIntoArrays >= 0.9);
        return r;
    }

    private static long fillRandom(double[] a, long seed) {
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < a.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            a[i] = (x >>> 11) * 0x1.0p-53;
        }
        return x;
    }

    private static void rawRead(Path file, ByteBuffer block) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(block.clear()) >= 0) {
                // read to the end
            }
        }
    }

    /** A raw read that also lands the bytes in {@code arrays}, one block at a time while the block is in cache. */
    private static void rawReadIntoArrays(Path file, ByteBuffer block, List<double[]> arrays) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (double[] a : arrays) {
                for (int at = 0; at < a.length; ) {
                    int n = Math.min(block.capacity() / 8, a.length - at);
                    block.clear().limit(n * 8);
                    while (block.hasRemaining()) {
                        if (ch.read(block) < 0) {
                            throw new IOException(file + " ended early");
                        }
                    }
                    block.flip().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(a, at, n);
                    at += n;
                }
            }
        }
    }
}
