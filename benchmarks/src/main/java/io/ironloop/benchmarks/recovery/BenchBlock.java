package io.ironloop.benchmarks.recovery;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.blocks.Block;

/**
 * A block of {@code doubles} values, initialised from its id (as an application's block computes its initial
 * state), and touched lightly by every step, so the benchmark measures snapshots and recovery rather than compute.
 */
final class BenchBlock implements Block {
    private final int id;
    private final double[] data;

    BenchBlock(int id, int doubles) {
        this.id = id;
        this.data = new double[doubles];
        for (int i = 0; i < doubles; i++) {
            data[i] = 1.0 + ((id * 2_654_435_761L + i * 40_503L) & 0xFFFF) / 65_536.0;
        }
    }

    @Override
    public int id() {
        return id;
    }

    /** The step: changes one value, deterministically. */
    void touch(long iteration) {
        data[(int) (iteration % data.length)] += 1.0;
    }

    double first() {
        return data[0];
    }

    double[] data() {
        return data;
    }

    @Override
    public void save(StateSink sink) {
        sink.putDoubles(data);
    }

    @Override
    public void restore(StateSource source) {
        source.getDoubles(data);
    }
}
