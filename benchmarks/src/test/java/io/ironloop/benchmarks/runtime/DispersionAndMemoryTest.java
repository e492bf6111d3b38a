package io.ironloop.benchmarks.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ironloop.benchmarks.Dispersion;
import org.junit.jupiter.api.Test;

/** The statistics of the overhead bench and the memory rule of the preempt bench. */
class DispersionAndMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void rsdPercent_isSampleStandardDeviationOverMean() {
        // mean 5, squares 9+1+1+9 = 20, sample variance 20/3
        assertThat(Dispersion.rsdPercent(new double[] {2, 4, 6, 8})).isCloseTo(Math.sqrt(20.0 / 3) / 5 * 100, within(1e-12));
    }

    @Test
    void rsdPercent_oneValue_isRejected() {
        assertThatThrownBy(() -> Dispersion.rsdPercent(new double[] {1})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rankJvmOptions_oneGiB_heapForTwoCopiesDirectForStaging() {
        assertThat(PreemptBench.rankJvmOptions(GIB)).containsExactly("-Xmx2304m", "-XX:MaxDirectMemorySize=1280m", "-XX:+UseSerialGC");
    }

    @Test
    void checkMemory_threeTimesSizePlusHeadroom_fitsExactly() {
        PreemptBench.checkMemory(GIB, 3 * GIB + PreemptBench.MEMORY_HEADROOM);
        assertThatThrownBy(() -> PreemptBench.checkMemory(GIB, 3 * GIB + PreemptBench.MEMORY_HEADROOM - 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--size 1GiB does not fit in memory");
    }
}
