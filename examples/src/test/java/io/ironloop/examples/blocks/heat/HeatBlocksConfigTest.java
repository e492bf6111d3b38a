package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockGrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeatBlocksConfigTest {
    @Test
    void builder_everyFieldSet_buildsTheRecord() {
        HeatBlocksConfig c = HeatBlocksConfig.builder().grid(new BlockGrid(3, 2, 5, 4)).steps(7).temperatures(1.5, -0.5).build();
        assertThat(c).isEqualTo(new HeatBlocksConfig(new BlockGrid(3, 2, 5, 4), 7, 1.5, -0.5));
        assertThat(c.grid().totalX()).isEqualTo(15);
        assertThat(c.grid().totalY()).isEqualTo(8);
        assertThat(c.settings()).containsEntry("blocks", "3x2").containsEntry("cells", "5x4").containsEntry("steps", "7");
    }

    @Test
    void builder_badValues_rejectedWithTheValue() {
        assertThatThrownBy(() -> HeatBlocksConfig.builder().grid(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> HeatBlocksConfig.builder().steps(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps");
        assertThatThrownBy(() -> HeatBlocksConfig.builder().temperatures(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite");
    }

    @Test
    void builder_fieldSetTwice_illegalState() {
        assertThatThrownBy(() -> HeatBlocksConfig.builder().steps(3).steps(4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("steps is set twice");
    }

    @Test
    void build_fieldMissing_illegalStateNamingIt() {
        assertThatThrownBy(() -> HeatBlocksConfig.builder().grid(new BlockGrid(1, 1, 2, 2)).temperatures(1, 0).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("steps is not set");
    }

    @Test
    void toBuilder_changesOneField_keepsTheOthers() {
        HeatBlocksConfig c = HeatBlocksConfig.test().toBuilder().steps(9).build();
        assertThat(c).isEqualTo(new HeatBlocksConfig(new BlockGrid(4, 4, 16, 16), 9, 1.0, 0.0));
    }

    @Test
    void constructor_badValue_rejected() {
        assertThatThrownBy(() -> new HeatBlocksConfig(new BlockGrid(1, 1, 1, 1), 1, Double.POSITIVE_INFINITY, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
