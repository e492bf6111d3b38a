package io.ironloop.examples.blocks.heat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeatBlocksConfigTest {
    @Test
    void builder_everyFieldSet_buildsTheRecord() {
        HeatBlocksConfig c = HeatBlocksConfig.builder().blocks(3, 2).cells(5, 4).steps(7).temperatures(1.5, -0.5).build();
        assertThat(c).isEqualTo(new HeatBlocksConfig(3, 2, 5, 4, 7, 1.5, -0.5));
        assertThat(c.totalX()).isEqualTo(15);
        assertThat(c.totalY()).isEqualTo(8);
        assertThat(c.settings()).containsEntry("blocks", "3x2").containsEntry("cells", "5x4").containsEntry("steps", "7");
    }

    @Test
    void builder_badValues_rejectedWithTheValue() {
        assertThatThrownBy(() -> HeatBlocksConfig.builder().blocks(0, 2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 x 2");
        assertThatThrownBy(() -> HeatBlocksConfig.builder().blocks(2048, 1024)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeatBlocksConfig.builder().cells(4, -1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4 x -1");
        assertThatThrownBy(() -> HeatBlocksConfig.builder().cells(8192, 8192)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^24");
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
        assertThatThrownBy(() -> HeatBlocksConfig.builder().blocks(1, 1).cells(2, 2).temperatures(1, 0).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("steps is not set");
    }

    @Test
    void build_domainWiderThanAnInt_rejected() {
        assertThatThrownBy(() -> HeatBlocksConfig.builder().blocks(1 << 20, 1).cells(4096, 1).steps(1).temperatures(1, 0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^31 - 1 cells along an axis");
    }

    @Test
    void toBuilder_changesOneField_keepsTheOthers() {
        HeatBlocksConfig c = HeatBlocksConfig.test().toBuilder().steps(9).build();
        assertThat(c).isEqualTo(new HeatBlocksConfig(4, 4, 16, 16, 9, 1.0, 0.0));
    }

    @Test
    void constructor_badValue_rejected() {
        assertThatThrownBy(() -> new HeatBlocksConfig(1, 1, 0, 1, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
