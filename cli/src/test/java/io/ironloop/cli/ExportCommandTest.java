package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.RANK0;
import static io.ironloop.cli.KeptCheckpoint.data;
import static io.ironloop.cli.KeptCheckpoint.littleEndian;
import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.cli.KeptCheckpoint.Run;
import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ironloop export} of a differential, compressed line: read back bit for bit with a pure-Java NPY
 * parser and with jHDF (always), and with NumPy and h5dump where they are installed.
 */
class ExportCommandTest {
    private static final Map<String, String> DTYPES = Map.of("temperature", "<f8", "pressure", "<f4", "cells", "<i4", "step", "<i8",
            "mask", "|b1", "label", "<u2", "small", "<i2", "raw", "|i1", "zeros", "<f8", "buffer", "|u1");
    @TempDir
    static Path dir;
    static KeptCheckpoint kept;
    static Path npy;
    static Path hdf5;

    @BeforeAll
    static void keepAndExport() {
        kept = KeptCheckpoint.create(dir.resolve("store"));
        npy = dir.resolve("npy");
        hdf5 = dir.resolve("hdf5");
        Run n = run("export", kept.path(data(RANK0, 3)), "--format", "npy", "--out", npy);
        Run h = run("export", kept.root.resolve(RANK0), "--format", "HDF5", "--out", hdf5);
        assertThat(n.exit()).as(n.err()).isZero();
        assertThat(h.exit()).as(h.err()).isZero();
    }

    private static String file(String entry) {
        return ExportCommand.sanitise(entry);
    }

    /** A parsed .npy file. */
    record Npy(String descr, boolean fortran, long[] shape, byte[] data) {
        static Npy read(Path p) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
            byte[] magic = new byte[6];
            b.get(magic);
            assertThat(magic).containsExactly(0x93, 'N', 'U', 'M', 'P', 'Y');
            int major = b.get();
            assertThat(b.get()).isZero();
            int headerLength = major == 1 ? Short.toUnsignedInt(b.getShort()) : b.getInt();
            byte[] header = new byte[headerLength];
            b.get(header);
            assertThat(b.position() % 64).as("data alignment").isZero();
            String h = new String(header, StandardCharsets.US_ASCII);
            assertThat(h).endsWith("\n");
            Matcher m = Pattern.compile("\\{'descr': '([^']+)', 'fortran_order': (True|False), 'shape': \\(([0-9, ]*)\\), \\} *\n").matcher(h);
            assertThat(m.matches()).as(h).isTrue();
            long[] shape = Arrays.stream(m.group(3).split(",")).map(String::trim).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
            byte[] data = new byte[b.remaining()];
            b.get(data);
            return new Npy(m.group(1), m.group(2).equals("True"), shape, data);
        }
    }

    @Test
    void exportNpy_everyEntry_readsBackBitForBit() throws IOException {
        for (Map.Entry<String, Object> e : kept.rank0.entrySet()) {
            Npy n = Npy.read(npy.resolve(file(e.getKey()) + ".npy"));
            assertThat(n.fortran()).isFalse();
            assertThat(n.shape()).containsExactly(Array.getLength(e.getValue()));
            assertThat(n.data()).as(e.getKey()).isEqualTo(littleEndian(e.getValue()));
            if (DTYPES.containsKey(e.getKey())) {
                assertThat(n.descr()).isEqualTo(DTYPES.get(e.getKey()));
            }
        }
        assertThat(npy.resolve("grid_u.npy")).exists();
        try (var s = Files.list(npy)) {
            assertThat(s.count()).isEqualTo(kept.rank0.size());
        }
    }

    @Test
    void exportHdf5_everyEntry_readsBackWithJhdf() throws IOException {
        for (Map.Entry<String, Object> e : kept.rank0.entrySet()) {
            String name = file(e.getKey());
            try (HdfFile h = new HdfFile(hdf5.resolve(name + ".h5"))) {
                Dataset ds = h.getDatasetByPath(name);
                assertThat(ds.getDimensions()).containsExactly(Array.getLength(e.getValue()));
                assertThat(ds.getAttribute("ironloop_entry").getData()).isEqualTo(e.getKey());
                assertThat(asStoredBytes(ds.getData(), e.getValue())).as(e.getKey()).isEqualTo(littleEndian(e.getValue()));
            }
        }
    }

    /** jHDF reads unsigned types widened (uint8 and uint16 as int); narrow them back to the original's layout. */
    private static byte[] asStoredBytes(Object read, Object original) {
        Class<?> t = original.getClass().getComponentType();
        if (t == boolean.class || t == char.class || (t == byte.class && read instanceof int[])) {
            int[] v = (int[]) read;
            Object narrowed = Array.newInstance(t, v.length);
            for (int i = 0; i < v.length; i++) {
                if (t == boolean.class) {
                    Array.setBoolean(narrowed, i, v[i] != 0);
                    assertThat(v[i]).isBetween(0, 1);
                } else if (t == char.class) {
                    Array.setChar(narrowed, i, (char) v[i]);
                } else {
                    Array.setByte(narrowed, i, (byte) v[i]);
                }
            }
            return littleEndian(narrowed);
        }
        return littleEndian(read);
    }

    @Test
    void export_intoDirectoryWithThoseFiles_refusesAndWritesNothing() throws IOException {
        Path out = Files.createDirectories(dir.resolve("partial"));
        Files.writeString(out.resolve("cells.npy"), "mine");

        Run r = run("export", kept.path(data(RANK0, 3)), "--format", "npy", "--out", out);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("refuses to overwrite [cells.npy]").contains("choose another --out directory");
        assertThat(Files.readString(out.resolve("cells.npy"))).isEqualTo("mine");
        try (var s = Files.list(out)) {
            assertThat(s.count()).isOne();
        }
    }

    @Test
    void export_unknownFormat_isAUsageError() {
        Run r = run("export", kept.root, "--format", "csv", "--out", dir.resolve("csv"));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--format").contains("NPY, HDF5").contains("csv");
        assertThat(dir.resolve("csv")).doesNotExist();
    }

    @Test
    void exportNpy_readByNumpy_matchesSha256OfTheOriginalBytes() throws Exception {
        assumeTrue(commandWorks("python3", "-c", "import numpy"), "python3 with NumPy is not installed");
        List<String> args = new ArrayList<>(List.of("python3", "-c",
                "import sys, hashlib, numpy\n"
                        + "for f in sys.argv[1:]:\n"
                        + "    a = numpy.load(f, allow_pickle=False)\n"
                        + "    print(f, a.dtype.str, a.shape, hashlib.sha256(numpy.ascontiguousarray(a).tobytes()).hexdigest())\n"));
        for (String entry : kept.rank0.keySet()) {
            args.add(npy.resolve(file(entry) + ".npy").toString());
        }
        String out = output(args);
        for (Map.Entry<String, Object> e : kept.rank0.entrySet()) {
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(littleEndian(e.getValue())));
            assertThat(out).contains(file(e.getKey()) + ".npy " + DTYPES.getOrDefault(e.getKey(), "<f8") + " ("
                    + Array.getLength(e.getValue()) + ",) " + sha);
        }
    }

    @Test
    void exportHdf5_readByH5dump_showsTheValues() throws Exception {
        assumeTrue(commandWorks("h5dump", "--version"), "h5dump (hdf5-tools) is not installed");
        String cells = output(List.of("h5dump", "-d", "/cells", hdf5.resolve("cells.h5").toString()));
        String label = output(List.of("h5dump", "-d", "/label", hdf5.resolve("label.h5").toString()));

        int[] expected = (int[]) kept.rank0.get("cells");
        assertThat(cells).contains("H5T_STD_I32LE").contains("( 3000 )").contains(Integer.toString(expected[0]))
                .contains(Integer.toString(expected[2999]));
        assertThat(label).contains("H5T_STD_U16LE").contains("104, 101, 108, 108, 111");
    }

    private static boolean commandWorks(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String output(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
