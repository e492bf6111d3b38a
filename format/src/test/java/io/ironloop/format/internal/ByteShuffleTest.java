package io.ironloop.format.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ByteShuffleTest {
    @Test
    void shuffle_twoLongs_groupsBytesBySignificance() {
        byte[] src = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 99};
        byte[] dst = new byte[src.length];

        ByteShuffle.shuffle(src, dst, src.length, 8);

        assertThat(dst).containsExactly(0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15, 6, 16, 7, 17, 99);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void unshuffle_afterShuffle_restoresEveryLengthAndWidth(int width) {
        Random rnd = new Random(width);
        for (int trial = 0; trial < 200; trial++) {
            int len = rnd.nextInt(300);
            byte[] src = new byte[len + rnd.nextInt(5)];
            rnd.nextBytes(src);
            byte[] shuffled = new byte[src.length];
            byte[] back = new byte[src.length];

            ByteShuffle.shuffle(src, shuffled, len, width);
            ByteShuffle.unshuffle(shuffled, back, len, width);

            assertThat(Arrays.copyOf(back, len)).isEqualTo(Arrays.copyOf(src, len));
        }
    }
}
