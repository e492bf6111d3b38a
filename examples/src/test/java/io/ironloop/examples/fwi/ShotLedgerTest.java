package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShotLedgerTest {

    @Test
    void sumInTaskOrder_missingShot_throwsNamingTheShot() {
        ShotLedger ledger = new ShotLedger(3, 2);
        ledger.record(4, new ShotResult(0, 1.0, new double[] {1, 2}));
        ledger.record(4, new ShotResult(2, 1.0, new double[] {1, 2}));
        assertThatThrownBy(() -> ledger.sumInTaskOrder(4, new double[2]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shot 1 has no result for round 4");
    }

    @Test
    void sumInTaskOrder_allShots_addsInShotOrder() {
        ShotLedger ledger = new ShotLedger(3, 1);
        ledger.record(0, new ShotResult(2, 1e-16, new double[] {1e-16}));
        ledger.record(0, new ShotResult(0, 1.0, new double[] {1.0}));
        ledger.record(0, new ShotResult(1, 1e-16, new double[] {1e-16}));
        double[] gradient = new double[1];
        // (1 + 1e-16) + 1e-16 == 1 in doubles, unlike 1 + (1e-16 + 1e-16)
        assertThat(ledger.sumInTaskOrder(0, gradient)).isEqualTo(1.0);
        assertThat(gradient).containsExactly(1.0);
    }

    @Test
    void forgetAfter_entriesOfLaterRound_droppedSoTheRedoneRoundMerges() {
        ShotLedger restored = new ShotLedger(2, 1);
        restored.record(4, new ShotResult(0, 4.0, new double[] {4}));
        restored.record(3, new ShotResult(1, 3.0, new double[] {3}));
        ShotLedger redone = new ShotLedger(2, 1);
        redone.record(3, new ShotResult(0, 3.5, new double[] {3.5}));

        assertThat(restored.forgetAfter(3)).isEqualTo(1);
        restored.mergeFrom(redone);

        assertThat(restored.countDone(3)).isEqualTo(2);
        double[] gradient = new double[1];
        assertThat(restored.sumInTaskOrder(3, gradient)).isEqualTo(6.5);
    }

    @Test
    void isDone_entryOfOlderRound_false() {
        ShotLedger ledger = new ShotLedger(2, 1);
        ledger.record(1, new ShotResult(0, 1.0, new double[] {1}));
        assertThat(ledger.isDone(1, 0)).isTrue();
        assertThat(ledger.isDone(2, 0)).isFalse();
        assertThat(ledger.countDone(2)).isZero();
    }

    @Test
    void mergeFrom_newerEntries_copiedAndOlderKept() {
        ShotLedger mine = new ShotLedger(2, 1);
        mine.record(3, new ShotResult(0, 5.0, new double[] {5}));
        ShotLedger theirs = new ShotLedger(2, 1);
        theirs.record(2, new ShotResult(0, 9.0, new double[] {9}));
        theirs.record(3, new ShotResult(1, 7.0, new double[] {7}));
        mine.mergeFrom(theirs);
        assertThat(mine.rounds()).containsExactly(3, 3);
        assertThat(mine.misfits()).containsExactly(5.0, 7.0);
    }

    @Test
    void mergeFrom_sameShotAndRoundWithDifferentBits_throws() {
        ShotLedger a = new ShotLedger(1, 1);
        a.record(0, new ShotResult(0, 1.0, new double[] {1}));
        ShotLedger b = new ShotLedger(1, 1);
        b.record(0, new ShotResult(0, 1.0, new double[] {2}));
        assertThatThrownBy(() -> a.mergeFrom(b)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shot 0 of round 0");
    }

    @Test
    void record_gradientOfWrongLength_throws() {
        ShotLedger ledger = new ShotLedger(1, 2);
        assertThatThrownBy(() -> ledger.record(0, new ShotResult(0, 1.0, new double[3])))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
