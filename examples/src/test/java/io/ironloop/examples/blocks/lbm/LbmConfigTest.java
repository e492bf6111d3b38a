package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockGrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LbmConfigTest {
    @Test
    void builder_everyFieldSet_buildsTheRecord() {
        LbmConfig c = LbmConfig.builder().grid(new BlockGrid(4, 2, 16, 16)).steps(10).tau(0.6).velocity(0.1).radius(4)
                .flow(LbmConfig.Flow.PERIODIC).build();
        assertThat(c).isEqualTo(new LbmConfig(new BlockGrid(4, 2, 16, 16), 10, 0.6, 0.1, 4, LbmConfig.Flow.PERIODIC));
        assertThat(c.settings()).containsEntry("flow", "periodic").containsEntry("radius", "4").containsEntry("tau", "0.6");
    }

    @Test
    void demo_reynoldsNumber() {
        assertThat(LbmConfig.demo().viscosity()).isCloseTo(1 / 30.0, within(1e-15));
        assertThat(LbmConfig.demo().reynolds()).isCloseTo(48, within(1e-9));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.4, 2.01, Double.NaN})
    void tau_outsideTheStableRange_rejected(double tau) {
        assertThatThrownBy(() -> LbmConfig.builder().tau(tau)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tau");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -0.1, 0.21, Double.POSITIVE_INFINITY})
    void velocity_outsideLowMach_rejected(double v) {
        assertThatThrownBy(() -> LbmConfig.builder().velocity(v)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("velocity");
    }

    @Test
    void builder_otherBadValues_rejected() {
        assertThatThrownBy(() -> LbmConfig.builder().steps(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LbmConfig.builder().radius(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LbmConfig.builder().flow(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void builder_fieldSetTwice_illegalState() {
        assertThatThrownBy(() -> LbmConfig.builder().tau(0.6).tau(0.7)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tau is set twice");
    }

    @Test
    void build_fieldMissing_illegalStateNamingIt() {
        assertThatThrownBy(() -> LbmConfig.builder().grid(new BlockGrid(1, 1, 20, 20)).steps(1).tau(0.6).velocity(0.1).radius(2).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("flow is not set");
    }

    @Test
    void build_cylinderTooLargeForTheChannel_rejectedWithTheFigures() {
        assertThatThrownBy(() -> LbmConfig.test().toBuilder().radius(15).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("radius 15").hasMessageContaining("64 x 32 cells");
        assertThatThrownBy(() -> new LbmConfig(new BlockGrid(1, 1, 10, 40), 1, 0.6, 0.1, 2, LbmConfig.Flow.CHANNEL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
    }

    @Test
    void build_noCylinder_fitsAnyChannel() {
        assertThat(new LbmConfig(new BlockGrid(1, 1, 1, 1), 1, 0.6, 0.1, 0, LbmConfig.Flow.PERIODIC).reynolds()).isZero();
    }
}
