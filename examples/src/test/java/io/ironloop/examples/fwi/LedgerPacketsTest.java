package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerPacketsTest {

    @Test
    void encodeThenMerge_selectedShots_sameBitsAndOthersUntouched() {
        ShotLedger from = new ShotLedger(3, 2);
        from.record(5, new ShotResult(0, Math.PI, new double[] {-0.0, Double.MIN_VALUE}));
        from.record(5, new ShotResult(2, 1e300, new double[] {Double.NaN, 7}));
        ShotLedger into = new ShotLedger(3, 2);

        LedgerPackets.mergeInto(into, LedgerPackets.encode(from, List.of(0, 1, 2)));

        assertThat(into.rounds()).containsExactly(5, -1, 5);
        assertThat(into.misfits()[0]).isEqualTo(Math.PI);
        assertThat(Double.doubleToRawLongBits(into.gradients()[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(into.gradients()[1]).isEqualTo(Double.MIN_VALUE);
        assertThat(into.gradients()[4]).isNaN();
    }

    @Test
    void mergeInto_packetOfOtherModelSize_throws() {
        ShotLedger small = new ShotLedger(2, 1);
        small.record(0, new ShotResult(0, 1, new double[] {1}));
        byte[] packet = LedgerPackets.encode(small, List.of(0));
        assertThatThrownBy(() -> LedgerPackets.mergeInto(new ShotLedger(2, 3), packet))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
    }
}
