package io.ironloop.cli;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.format.Codec;
import io.ironloop.format.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A kept checkpoint store written by real engines, for the tool tests: series {@code rank-00000} (ZSTD,
 * differential, every entry type, iterations 10, 20, 30: line 1 full, lines 2 and 3 differential),
 * {@code rank-00001} (uncompressed, iterations 10 and 20) and {@code global} (iteration 10), world size 2.
 */
final class KeptCheckpoint {
    static final String RANK0 = "rank-00000";
    static final String RANK1 = "rank-00001";

    /** rank 0's entries as of its newest line (iteration 30), by entry name. */
    final Map<String, Object> rank0 = new LinkedHashMap<>();
    final Path root;

    private KeptCheckpoint(Path root) {
        this.root = root;
    }

    static KeptCheckpoint create(Path root) {
        KeptCheckpoint k = new KeptCheckpoint(root);
        k.writeRank0();
        k.writeRank1AndGlobal();
        return k;
    }

    /** Store-relative data file of line {@code n} of {@code series}. */
    static String data(String series, long n) {
        return String.format("%s/line-%012d.ilc", series, n);
    }

    static String commit(String series, long n) {
        return String.format("%s/line-%012d.commit", series, n);
    }

    Path path(String storeRelative) {
        return root.resolve(storeRelative);
    }

    /** A copy of the store under {@code target}, for tests that damage it. */
    Path copyTo(Path target) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path to = target.resolve(root.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return target;
    }

    private void writeRank0() {
        Random rnd = new Random(7);
        double[] temperature = new double[4096];
        for (int i = 0; i < temperature.length; i++) {
            temperature[i] = 300 + Math.sin(i * 0.003);
        }
        float[] pressure = new float[1000];
        for (int i = 0; i < pressure.length; i++) {
            pressure[i] = rnd.nextFloat();
        }
        int[] cells = rnd.ints(3000).toArray();
        boolean[] mask = new boolean[100];
        for (int i = 0; i < mask.length; i++) {
            mask[i] = rnd.nextBoolean();
        }
        char[] label = "hello, ironloop \u00e9\u4e16".toCharArray();
        short[] small = new short[50];
        for (int i = 0; i < small.length; i++) {
            small[i] = (short) rnd.nextInt();
        }
        byte[] raw = new byte[5000];
        rnd.nextBytes(raw);
        double[] zeros = new double[2048];
        ByteBuffer buffer = ByteBuffer.allocateDirect(300);
        for (int i = 0; i < 300; i++) {
            buffer.put(i, (byte) (i * 7));
        }
        double[] gridU = rnd.doubles(64).toArray();
        LongCell step = new LongCell(0);
        EngineConfig config = EngineConfig.builder().rank(0, 2).chunkSize(4096).retainLines(5).compression(Codec.ZSTD, 3)
                .differential(true, 8).build();
        try (CheckpointEngine e = CheckpointEngine.open(config, Store.directory(root))) {
            e.protect("temperature", Scope.LOCAL, temperature);
            e.protect("pressure", Scope.LOCAL, pressure);
            e.protect("cells", Scope.LOCAL, cells);
            e.protect("step", Scope.LOCAL, step);
            e.protect("mask", Scope.LOCAL, mask);
            e.protect("label", Scope.SETTINGS, label);
            e.protect("small", Scope.LOCAL, small);
            e.protect("raw", Scope.LOCAL, raw);
            e.protect("zeros", Scope.LOCAL, zeros);
            e.protect("buffer", Scope.LOCAL, buffer);
            e.protect("grid/u", Scope.GLOBAL, gridU);
            for (int it = 10; it <= 30; it += 10) {
                temperature[it] += 1;
                step.set(it);
                e.checkpoint(it);
                e.awaitDurable();
            }
        }
        byte[] bufferBytes = new byte[300];
        buffer.get(0, bufferBytes);
        rank0.put("temperature", temperature);
        rank0.put("pressure", pressure);
        rank0.put("cells", cells);
        rank0.put("step", new long[] {step.get()});
        rank0.put("mask", mask);
        rank0.put("label", label);
        rank0.put("small", small);
        rank0.put("raw", raw);
        rank0.put("zeros", zeros);
        rank0.put("buffer", bufferBytes);
        rank0.put("grid/u", gridU);
    }

    private void writeRank1AndGlobal() {
        double[] temperature = new double[4096];
        java.util.Arrays.fill(temperature, 290);
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().rank(1, 2).chunkSize(4096).retainLines(5).build(),
                Store.directory(root))) {
            e.protect("temperature", Scope.LOCAL, temperature);
            e.checkpoint(10);
            e.checkpoint(20);
            e.awaitDurable();
        }
        double[] params = {0.5, 1.5, 2.5};
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().rank(0, 2).series("global").build(), Store.directory(root))) {
            e.protect("params", Scope.GLOBAL, params);
            e.checkpoint(10);
            e.awaitDurable();
        }
    }

    /** The little-endian bytes of a primitive array, as the checkpoint stores them (booleans as 0/1). */
    static byte[] littleEndian(Object array) {
        int n = Array.getLength(array);
        Class<?> t = array.getClass().getComponentType();
        int width = t == double.class || t == long.class ? 8 : t == float.class || t == int.class ? 4
                : t == short.class || t == char.class ? 2 : 1;
        ByteBuffer b = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            Object v = Array.get(array, i);
            if (v instanceof Double d) {
                b.putDouble(d);
            } else if (v instanceof Float f) {
                b.putFloat(f);
            } else if (v instanceof Long l) {
                b.putLong(l);
            } else if (v instanceof Integer x) {
                b.putInt(x);
            } else if (v instanceof Short s) {
                b.putShort(s);
            } else if (v instanceof Character c) {
                b.putChar(c);
            } else if (v instanceof Byte y) {
                b.put(y);
            } else {
                b.put((byte) ((Boolean) v ? 1 : 0));
            }
        }
        return b.array();
    }

    /** What one run of the command line produced. */
    record Run(int exit, String out, String err) {
    }

    /** Runs {@code ironloop args} in this JVM, capturing standard output and error. */
    static Run run(Object... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] strings = Stream.of(args).map(Object::toString).toArray(String[]::new);
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), strings);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
