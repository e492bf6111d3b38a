package io.ironloop.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** Test helpers: write files in memory, open them, and make entry contents. */
public final class Checkpoints {
    private Checkpoints() {
    }

    /** A finished file's bytes and summary. */
    public record Written(byte[] bytes, WriteSummary summary) {
        public Manifest manifest() {
            return summary.manifest();
        }
    }

    public static FileMeta meta(long iteration) {
        return new FileMeta("job-1", iteration, 1, 4, "sha256:feed", Instant.parse("2025-11-21T12:00:00Z"),
                Map.of("scheduler", "test", "note", "ü ✓"));
    }

    public static Written write(String name, WriterOptions options, Manifest previous, Map<EntryHeader, ByteBuffer> entries) {
        try {
            MemoryChannel ch = new MemoryChannel();
            CheckpointWriter w = CheckpointWriter.open(ch, name, meta(7), options, previous);
            for (Map.Entry<EntryHeader, ByteBuffer> e : entries.entrySet()) {
                w.writeEntry(e.getKey(), e.getValue());
            }
            WriteSummary s = w.finish();
            return new Written(ch.toByteArray(), s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Written write(WriterOptions options, Map<EntryHeader, ByteBuffer> entries) {
        return write("line-1/rank-1.ilc", options, null, entries);
    }

    public static CheckpointReader open(byte[] file, String name, ChunkResolver resolver) throws IOException {
        return CheckpointReader.open(new MemoryChannel(file), name, resolver);
    }

    public static CheckpointReader open(byte[] file) throws IOException {
        return open(file, "test.ilc", ChunkResolver.NONE);
    }

    /** A resolver over in-memory files by store-relative name. */
    public static ChunkResolver resolver(Map<String, byte[]> files) {
        Map<String, byte[]> copy = new HashMap<>(files);
        return name -> {
            byte[] b = copy.get(name);
            if (b == null) {
                throw new java.nio.file.NoSuchFileException(name);
            }
            return new MemoryChannel(b);
        };
    }

    /** Reads every entry into fresh heap buffers, keyed by name. */
    public static Map<String, ByteBuffer> readAll(CheckpointReader r) throws IOException {
        Map<String, ByteBuffer> out = new LinkedHashMap<>();
        for (EntryDescriptor e : r.manifest().entries()) {
            ByteBuffer b = ByteBuffer.allocate((int) e.header().byteLength());
            r.readEntry(e.name(), b);
            out.put(e.name(), b);
        }
        return out;
    }

    public static ByteBuffer randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return ByteBuffer.wrap(b);
    }

    /**
     * A smooth 2-D field as doubles, little-endian: a seismic velocity model as in DeLIA's FWI case
     * study, increasing with depth plus a lateral undulation, in m/s to 0.1 m/s.
     */
    public static ByteBuffer smoothDoubles(int rows, int cols) {
        ByteBuffer b = ByteBuffer.allocate(rows * cols * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int z = 0; z < rows; z++) {
            for (int x = 0; x < cols; x++) {
                b.putDouble(Math.rint((1500 + 4.0 * z + 200 * Math.sin(x / 50.0)) * 10) / 10);
            }
        }
        return b.flip();
    }

    /** A slowly varying smooth 2-D field sin·cos + 2 as full-precision floats, little-endian. */
    public static ByteBuffer smoothFloats(int rows, int cols) {
        ByteBuffer b = ByteBuffer.allocate(rows * cols * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                b.putFloat((float) (Math.sin(i * 0.001) * Math.cos(j * 0.0013) + 2));
            }
        }
        return b.flip();
    }

    /** A smooth 2-D field sin·cos computed in full double precision, little-endian. */
    public static ByteBuffer fullPrecisionDoubles(int rows, int cols) {
        ByteBuffer b = ByteBuffer.allocate(rows * cols * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                b.putDouble(Math.sin(i * 0.01) * Math.cos(j * 0.013));
            }
        }
        return b.flip();
    }

    /** A smooth temperature field around 20 °C rounded to a 0.01 grid, as doubles: many repeated 8-byte values. */
    public static ByteBuffer gridTemperatures(int rows, int cols) {
        ByteBuffer b = ByteBuffer.allocate(rows * cols * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                b.putDouble(Math.rint((20 + 5 * Math.sin(i * 0.01) * Math.cos(j * 0.013)) * 100) / 100);
            }
        }
        return b.flip();
    }

    /** Mixed contents: some chunks random, some zero, some smooth, chosen per region by {@code rnd}. */
    public static ByteBuffer mixed(Random rnd, int n, int region) {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        for (int start = 0; start < n; start += region) {
            int len = Math.min(region, n - start);
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    byte[] x = new byte[len];
                    rnd.nextBytes(x);
                    b.put(start, x);
                }
                case 1 -> { } // zeros
                case 2 -> {
                    for (int i = 0; i + 8 <= len; i += 8) {
                        b.putDouble(start + i, Math.sin((start + i) * 1e-4));
                    }
                }
                default -> {
                    byte v = (byte) rnd.nextInt(256);
                    for (int i = 0; i < len; i++) {
                        b.put(start + i, (byte) (v + i / 64));
                    }
                }
            }
        }
        return b;
    }

    public static ByteBuffer direct(ByteBuffer heap) {
        ByteBuffer d = ByteBuffer.allocateDirect(heap.remaining());
        d.put(heap.duplicate()).flip();
        return d;
    }
}
