package io.ironloop.benchmarks.format;

import io.ironloop.format.FileMeta;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;

/** Benchmark inputs: entry contents of a given kind in touched direct memory, and file metadata. */
final class Payloads {
    private Payloads() {
    }

    /** {@code bytes} bytes (a multiple of 8) of doubles of the given kind, in a direct buffer. */
    static ByteBuffer doubles(Content content, int bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int n = bytes / Double.BYTES;
        int cols = 1024;
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < n; i++) {
            int z = i / cols;
            int x = i % cols;
            double v = switch (content) {
                case RANDOM -> rnd.nextDouble();
                case SMOOTH -> Math.rint((1500 + 4.0 * (z % 1000) + 200 * Math.sin(x / 50.0)) * 10) / 10;
                case FULL_PRECISION -> Math.sin(z * 0.01) * Math.cos(x * 0.013);
            };
            b.putDouble(v);
        }
        return b.flip();
    }

    static FileMeta meta() {
        return new FileMeta("bench", 1, 0, 1, "bench", Instant.EPOCH, Map.of());
    }
}
