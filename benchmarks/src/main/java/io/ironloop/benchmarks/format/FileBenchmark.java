package io.ironloop.benchmarks.format;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.CheckpointWriter;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.Codec;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.Scope;
import io.ironloop.format.WriterOptions;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Checkpoint files against raw {@code FileChannel} transfers of the same bytes, in the same run and
 * directory: {@code writeFormat} vs {@code writeRaw} (new file each time, optionally fsynced) and
 * {@code readFormat} vs {@code readRaw} (page cache warm from the previous iterations, both into a
 * direct buffer). Uncompressed, unhashed random doubles: the configuration whose throughput the
 * checkpoint bench holds to 0.9× raw. Time per operation; divide {@code bytes} by it for GB/s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class FileBenchmark {
    @Param({"268435456"})
    public int bytes;

    @Param({"false"})
    public boolean fsync;

    /** Where files go; defaults to a fresh temporary directory. */
    @Param({""})
    public String dir;

    private Path directory;
    private ByteBuffer data;
    private ByteBuffer target;
    private EntryHeader header;
    private Path formatFile;
    private Path rawFile;
    private int sequence;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = dir.isEmpty() ? Files.createTempDirectory("ironloop-bench") : Files.createDirectories(Path.of(dir));
        data = Payloads.doubles(Content.RANDOM, bytes);
        target = ByteBuffer.allocateDirect(bytes);
        header = new EntryHeader("u", ElementType.DOUBLE, new long[] {bytes / Double.BYTES}, Scope.LOCAL, Codec.NONE);
        formatFile = directory.resolve("read.ilc");
        rawFile = directory.resolve("read.raw");
        writeFormat(formatFile);
        writeRaw(rawFile);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                if (!dir.isEmpty() && p.equals(directory)) {
                    continue;
                }
                Files.deleteIfExists(p);
            }
        }
    }

    private Path next(String suffix) throws IOException {
        Path p = directory.resolve("w" + (sequence++ % 4) + suffix);
        Files.deleteIfExists(p);
        return p;
    }

    private void writeFormat(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CheckpointWriter w = CheckpointWriter.open(ch, "bench.ilc", Payloads.meta(), WriterOptions.DEFAULT, null);
            w.writeEntry(header, data);
            w.finish();
            if (fsync) {
                ch.force(true);
            }
        }
    }

    private void writeRaw(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer src = data.duplicate();
            int piece = WriterOptions.DEFAULT.chunkSize();
            while (src.hasRemaining()) {
                ByteBuffer slice = src.slice(src.position(), Math.min(piece, src.remaining()));
                while (slice.hasRemaining()) {
                    ch.write(slice);
                }
                src.position(src.position() + slice.limit());
            }
            if (fsync) {
                ch.force(true);
            }
        }
    }

    @Benchmark
    public void writeFormat() throws IOException {
        writeFormat(next(".ilc"));
    }

    @Benchmark
    public void writeRaw() throws IOException {
        writeRaw(next(".raw"));
    }

    @Benchmark
    public ByteBuffer readFormat() throws IOException {
        try (FileChannel ch = FileChannel.open(formatFile, StandardOpenOption.READ)) {
            CheckpointReader.open(ch, formatFile.toString(), ChunkResolver.NONE).readEntry("u", target.clear());
        }
        return target;
    }

    @Benchmark
    public ByteBuffer readRaw() throws IOException {
        try (FileChannel ch = FileChannel.open(rawFile, StandardOpenOption.READ)) {
            ByteBuffer dst = target.clear();
            int piece = WriterOptions.DEFAULT.chunkSize();
            long position = 0;
            while (dst.hasRemaining()) {
                ByteBuffer slice = dst.slice(dst.position(), Math.min(piece, dst.remaining()));
                while (slice.hasRemaining()) {
                    int n = ch.read(slice, position + slice.position());
                    if (n < 0) {
                        throw new IOException("short raw file " + rawFile);
                    }
                }
                position += slice.limit();
                dst.position(dst.position() + slice.limit());
            }
        }
        return target;
    }
}
