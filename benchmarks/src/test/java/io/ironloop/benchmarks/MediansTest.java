package io.ironloop.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MediansTest {
    @Test
    void theIntervalTakesTheOrderStatisticsTheSignTestGives() {
        double[] twenty = IntStream.rangeClosed(1, 20).mapToDouble(i -> i).toArray();
        // P(B < 6) = 21700 / 2^20 for B ~ Binomial(20, 1/2): [6th, 15th] covers 95.86 %, [7th, 14th] only 88.5 %
        assertThat(Medians.interval(shuffled(twenty), 0.95)).containsExactly(6, 15);
        assertThat(Medians.coverage(20, 0.95)).isCloseTo(1 - 2 * 21700 / 1048576.0, within(1e-12));
        assertThat(Medians.interval(new double[] {3, 1, 2, 6, 5, 4}, 0.95)).containsExactly(1, 6);
    }

    @Test
    void tooFewValuesGiveTheRangeAndSayItsLowerCoverage() {
        assertThat(Medians.interval(new double[] {2, 9, 4, 1, 7}, 0.95)).containsExactly(1, 9);
        assertThat(Medians.coverage(5, 0.95)).isCloseTo(1 - 2 / 32.0, within(1e-12));
        assertThat(Medians.interval(new double[] {4}, 0.95)).containsExactly(4, 4);
    }

    @Test
    void theIntervalCoversTheTrueMedianAsOftenAsItSays() {
        Random random = new Random(7);
        int covered = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            double[] draws = random.doubles(15).map(u -> -Math.log(u)).toArray(); // exponential: skewed, median ln 2
            double[] ci = Medians.interval(draws, 0.95);
            if (ci[0] <= Math.log(2) && Math.log(2) <= ci[1]) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isCloseTo(Medians.coverage(15, 0.95), within(0.015));
    }

    @Test
    void emptyInputOrAConfidenceOutsideZeroOneIsRefused() {
        assertThatThrownBy(() -> Medians.interval(new double[0], 0.95)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one value");
        assertThatThrownBy(() -> Medians.interval(new double[] {1}, 1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static double[] shuffled(double[] v) {
        double[] s = v.clone();
        Random random = new Random(1);
        for (int i = s.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            double x = s[i];
            s[i] = s[j];
            s[j] = x;
        }
        return s;
    }
}
