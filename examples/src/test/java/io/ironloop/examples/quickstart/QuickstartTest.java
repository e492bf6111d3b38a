package io.ironloop.examples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QuickstartTest {

    @Test
    void computeLocal_rankTwoIterationThree_isRankTimesIndexTimesIteration() {
        double[] local = new double[5];
        Quickstart.computeLocal(2, 3, local);
        assertThat(local).containsExactly(0, 6, 12, 18, 24);
    }

    @Test
    void run_fourRanks_globalDataIsSumOverRanksOfLastIteration() {
        Quickstart[] ranks = run(4, 8, 12, -1);
        int last = 11;
        for (int i = 0; i < 8; i++) {
            assertThat(ranks[0].globalData()[i]).isEqualTo((double) i * last * (0 + 1 + 2 + 3));
        }
        assertThat(ranks[0].isFinished()).isTrue();
        assertThat(ranks[0].iteration()).isEqualTo(12);
    }

    @Test
    void fold_oneEarlierIterationDiffers_differentResult() {
        String clean = run(4, 8, 12, -1)[0].resultLine();
        String perturbed = run(4, 8, 12, 3)[0].resultLine();
        assertThat(perturbed).isNotEqualTo(clean);
        assertThat(clean).matches("result sha256=[0-9a-f]{64}");
        assertThat(Quickstart.simulate(4, 8, 12)).isEqualTo(clean);
    }

    @Test
    void resultLine_stateCopiedMidRunIntoFreshObject_identical() {
        Quickstart app = new Quickstart(0, 8, 12);
        for (int k = 0; k < 5; k++) {
            step(new Quickstart[] {app}, -1);
        }
        Quickstart fresh = new Quickstart(0, 8, 12);
        System.arraycopy(app.globalData(), 0, fresh.globalData(), 0, 8);
        System.arraycopy(app.progress(), 0, fresh.progress(), 0, 2);
        while (!app.isFinished()) {
            step(new Quickstart[] {app}, -1);
            step(new Quickstart[] {fresh}, -1);
        }
        assertThat(fresh.resultLine()).isEqualTo(app.resultLine());
    }

    @Test
    void constructor_negativeRank_throws() {
        assertThatThrownBy(() -> new Quickstart(-1, 8, 12)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Runs all ranks, adding 1 to the global data of iteration {@code perturbed} (or none). */
    private static Quickstart[] run(int ranks, int size, int iterations, int perturbed) {
        Quickstart[] apps = new Quickstart[ranks];
        for (int r = 0; r < ranks; r++) {
            apps[r] = new Quickstart(r, size, iterations);
        }
        while (!apps[0].isFinished()) {
            step(apps, perturbed);
        }
        return apps;
    }

    private static void step(Quickstart[] apps, int perturbed) {
        int size = apps[0].localData().length;
        double[] sum = new double[size];
        for (Quickstart app : apps) {
            app.computeLocal();
            for (int i = 0; i < size; i++) {
                sum[i] += app.localData()[i];
            }
        }
        if (apps[0].iteration() == perturbed) {
            sum[0] += 1;
        }
        for (Quickstart app : apps) {
            System.arraycopy(sum, 0, app.globalData(), 0, size);
            app.completeIteration();
        }
    }
}
