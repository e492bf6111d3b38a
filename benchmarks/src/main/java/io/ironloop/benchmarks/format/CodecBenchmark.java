package io.ironloop.benchmarks.format;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.CheckpointWriter;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.Codec;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.Scope;
import io.ironloop.format.WriteSummary;
import io.ironloop.format.WriterOptions;
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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Encode and decode throughput of one entry, in memory (no kernel I/O): zero check, CRC32C, byte
 * shuffle, compression and their inverses. The {@code rawBytes} counter is the entry bytes per
 * second; {@code storedBytes} is what the file holds per second of encoding, so
 * {@code rawBytes / storedBytes} is the compression ratio.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class CodecBenchmark {
    @Param({"NONE", "ZSTD", "LZ4"})
    public Codec codec;

    @Param({"RANDOM", "SMOOTH", "FULL_PRECISION"})
    public Content content;

    @Param({"67108864"})
    public int bytes;

    @Param({"1048576"})
    public int chunkSize;

    private ByteBuffer data;
    private ByteBuffer target;
    private EntryHeader header;
    private WriterOptions options;
    private MemoryFile writeFile;
    private MemoryFile readFile;

    /** Bytes processed, reported by JMH as rates. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(org.openjdk.jmh.annotations.Scope.Thread)
    public static class Bytes {
        public long rawBytes;
        public long storedBytes;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        data = Payloads.doubles(content, bytes);
        target = ByteBuffer.allocateDirect(bytes);
        header = new EntryHeader("u", ElementType.DOUBLE, new long[] {bytes / Double.BYTES}, Scope.LOCAL, codec);
        options = new WriterOptions(chunkSize, 3, false);
        writeFile = new MemoryFile(bytes + (bytes >> 4) + (1 << 20));
        readFile = new MemoryFile(bytes + (bytes >> 4) + (1 << 20));
        write(readFile);
    }

    private WriteSummary write(MemoryFile file) throws IOException {
        file.reset();
        CheckpointWriter w = CheckpointWriter.open(file, "bench.ilc", Payloads.meta(), options, null);
        w.writeEntry(header, data);
        return w.finish();
    }

    @Benchmark
    public WriteSummary encode(Bytes counter) throws IOException {
        WriteSummary s = write(writeFile);
        counter.rawBytes += bytes;
        counter.storedBytes += s.fileBytes();
        return s;
    }

    @Benchmark
    public ByteBuffer decode(Bytes counter) throws IOException {
        CheckpointReader r = CheckpointReader.open(readFile, "bench.ilc", ChunkResolver.NONE);
        r.readEntry("u", target.clear());
        counter.rawBytes += bytes;
        counter.storedBytes += readFile.size();
        return target;
    }
}
