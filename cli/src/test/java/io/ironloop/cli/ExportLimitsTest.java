package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.KeptCheckpoint.Run;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ironloop export} of small files whose manifests claim huge entries of zero chunks: npy is streamed chunk by
 * chunk in a JVM whose heap is far smaller than the entry, HDF5 (which jHDF cannot stream) is refused when the heap
 * is too small, and anything larger than {@code --max-size} or the free disk is refused before a byte is written.
 */
class ExportLimitsTest {
    private static final int MIB = 1 << 20;
    @TempDir
    Path dir;

    /** Runs {@code ironloop args} in a child JVM with a 32 MiB heap. */
    private static Run inSmallJvm(Object... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        Stream.of(args).map(Object::toString).forEach(cmd::add);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start();
        try {
            byte[] err = p.getErrorStream().readAllBytes();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the export ends").isTrue();
            return new Run(p.exitValue(), out, new String(err, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void exportNpy_entryEightTimesTheHeap_streamsInBoundedMemory() throws Exception {
        long claimed = 256L * MIB;
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), claimed, MIB);
        assertThat(Files.size(file)).as("a small file").isLessThan(MIB);
        Path out = dir.resolve("npy");

        Run r = inSmallJvm("export", file, "--format", "npy", "--out", out);

        assertThat(r.exit()).as(r.err()).isZero();
        Path npy = out.resolve("field.npy");
        byte[] header = NpyWriter.header(io.ironloop.format.ElementType.DOUBLE, new long[] {claimed / 8});
        assertThat(Files.size(npy)).isEqualTo(header.length + claimed);
        try (FileChannel ch = FileChannel.open(npy, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(header.length);
            ch.read(head, 0);
            assertThat(head.array()).isEqualTo(header);
            Random rnd = new Random(5);
            for (int i = 0; i < 64; i++) {
                ByteBuffer b = ByteBuffer.allocate(4096);
                ch.read(b, header.length + rnd.nextLong(claimed - 4096));
                assertThat(b.array()).as("zeros").containsOnly(0);
            }
        } finally {
            Files.delete(npy);
        }
    }

    @Test
    void exportHdf5_entryLargerThanTheHeapAllows_isRefusedWithAdvice() throws Exception {
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), 64L * MIB, MIB);
        Path out = dir.resolve("h5");

        Run r = inSmallJvm("export", file, "--format", "hdf5", "--out", out);

        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("entry 'field'").contains("holds 67108864 bytes").contains("export it as npy")
                .contains("IRONLOOP_JAVA_OPTS=-Xmx");
        assertThat(out.resolve("field.h5")).doesNotExist();
    }

    @Test
    void export_largerThanMaxSize_isRefusedBeforeWriting() throws Exception {
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), 256L * MIB, MIB);
        Path out = dir.resolve("limited");

        Run r = run("export", file, "--format", "npy", "--out", out, "--max-size", "100MiB");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("would write 256.0 MiB").contains("entry 'field' alone holds 268435456")
                .contains("more than --max-size 100.0 MiB").contains("nothing was written");
        assertThat(out).doesNotExist();
    }

    @Test
    void export_withinMaxSize_writes() throws Exception {
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), 4L * MIB, MIB);

        Run r = run("export", file, "--format", "npy", "--out", dir.resolve("fits"), "--max-size", "5MiB");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(dir.resolve("fits/field.npy")).exists();
    }

    @Test
    void export_largerThanTheFreeDisk_isRefusedBeforeWriting() throws Exception {
        long free = Files.getFileStore(dir).getUsableSpace();
        long chunk = 64L * MIB;
        long claimed = (free / chunk + 1 + free / chunk / 10) * chunk;
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), claimed, (int) chunk);
        Path out = dir.resolve("full");

        Run r = run("export", file, "--format", "npy", "--out", out);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("would write").contains("bytes) free: nothing was written; free space or choose another --out");
        assertThat(out).doesNotExist();
    }

    @Test
    void export_badMaxSize_isAUsageError() throws Exception {
        Path file = ForgedCheckpoints.claimingZeros(dir.resolve("store"), MIB, MIB);

        Run r = run("export", file, "--format", "npy", "--out", dir.resolve("x"), "--max-size", "lots");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--max-size");
    }
}
