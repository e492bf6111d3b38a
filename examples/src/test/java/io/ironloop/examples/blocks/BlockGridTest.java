package io.ironloop.examples.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.runtime.blocks.Grid2D;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BlockGridTest {
    @Test
    void grid_sizes_totalsLayoutAndWords() {
        BlockGrid g = new BlockGrid(3, 2, 5, 4);
        assertThat(g.totalX()).isEqualTo(15);
        assertThat(g.totalY()).isEqualTo(8);
        assertThat(g.describe()).isEqualTo("15 x 8 cells in 3 x 2 blocks of 5 x 4");
        Grid2D periodic = g.layout(true);
        assertThat(periodic.blockCount()).isEqualTo(6);
        assertThat(periodic.neighbour(2, Grid2D.EAST)).isZero();
        assertThat(periodic.neighbour(0, Grid2D.SOUTH)).isEqualTo(-1);
        assertThat(g.layout(false).neighbour(2, Grid2D.EAST)).isEqualTo(-1);
    }

    @ParameterizedTest
    @CsvSource({"0, 2, 4, 4, 0 x 2", "2048, 1024, 1, 1, 2048 x 1024", "1, 1, 4, -1, 4 x -1", "1, 1, 4096, 1024, 2^22",
            "1048576, 1, 4096, 1, 2^31 - 1 cells along an axis"})
    void grid_badSizes_rejectedNamingThem(int bx, int by, int cx, int cy, String message) {
        assertThatThrownBy(() -> new BlockGrid(bx, by, cx, cy)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
