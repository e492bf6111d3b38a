package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FwiConfigTest {

    @Test
    void builder_sameFieldTwice_throwsIllegalState() {
        FwiConfig.Builder builder = FwiConfig.test().toBuilder().shots(4);
        assertThatThrownBy(() -> builder.shots(5)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shots");
    }

    @Test
    void builder_badValue_throwsIllegalArgument() {
        assertThatThrownBy(() -> FwiConfig.test().toBuilder().shots(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shots");
        assertThatThrownBy(() -> FwiConfig.test().toBuilder().grid(4, 30))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nx");
    }

    @Test
    void build_moreShotsThanCells_throwsIllegalArgument() {
        assertThatThrownBy(() -> FwiConfig.test().toBuilder().shots(49).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shots");
    }

    @Test
    void settings_budgetChanged_sameSettings() {
        FwiConfig smaller = FwiConfig.test().toBuilder().wavefieldBudgetBytes(1 << 20).build();
        assertThat(smaller.settings()).isEqualTo(FwiConfig.test().settings());
        assertThat(FwiConfig.demo().settings()).isNotEqualTo(FwiConfig.test().settings());
    }
}
