package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FwiInversionTest {

    /** The failure-free sequential run of the test size, done once (the first, cold run). */
    private static final class Reference {
        static final FwiInversion RUN;
        static final long NANOS;

        static {
            long start = System.nanoTime();
            RUN = new FwiInversion(new FwiProblem(FwiConfig.test()));
            RUN.run(FwiListener.NONE);
            NANOS = System.nanoTime() - start;
        }
    }

    @Test
    void run_testSize_completesUnderTenSeconds() {
        assertThat(Reference.NANOS).isLessThan(10_000_000_000L);
        assertThat(Reference.RUN.state().phase()).isEqualTo(FwiState.Phase.DONE);
        assertThat(Reference.RUN.state().iteration()).isEqualTo(FwiConfig.test().maxIterations());
    }

    @Test
    void run_testSize_misfitFallsAtEveryIteration() {
        double[] misfits = Reference.RUN.state().misfitHistory();
        assertThat(misfits).hasSize(FwiConfig.test().maxIterations() + 1);
        for (int k = 1; k < misfits.length; k++) {
            assertThat(misfits[k]).as("misfit of iteration %d", k).isLessThan(misfits[k - 1]);
        }
        assertThat(misfits[misfits.length - 1]).isLessThan(0.5 * misfits[0]);
    }

    @Test
    void run_testSize_modelMovesTowardsTrueModel() {
        FwiProblem problem = Reference.RUN.problem();
        assertThat(distance(Reference.RUN.state().model(), problem.trueModel()))
                .isLessThan(0.8 * distance(problem.initialModel(), problem.trueModel()));
    }

    @Test
    void run_shotsShuffledAndSplitAmongRanks_bitIdenticalToSequential() {
        int ranks = 3;
        Random random = new Random(7);
        List<FwiInversion> processes = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            processes.add(new FwiInversion(new FwiProblem(FwiConfig.test())));
        }
        int shots = FwiConfig.test().shots();
        while (!processes.get(0).isFinished()) {
            // a different random assignment and order every round, as work stealing would give
            List<Integer> order = new ArrayList<>();
            for (int s = 0; s < shots; s++) {
                order.add(s);
            }
            Collections.shuffle(order, random);
            ShotLedger[] ledgers = new ShotLedger[ranks];
            for (int r = 0; r < ranks; r++) {
                ledgers[r] = processes.get(r).newLedger();
            }
            for (int k = 0; k < shots; k++) {
                int r = random.nextInt(ranks);
                processes.get(r).computeShots(new int[] {order.get(k)}, ledgers[r], FwiListener.NONE);
            }
            for (int r = 0; r < ranks; r++) {
                ShotLedger gathered = processes.get(r).newLedger();
                for (int from = ranks - 1; from >= 0; from--) {
                    gathered.mergeFrom(ledgers[(from + r) % ranks]);
                }
                processes.get(r).completeRound(gathered);
            }
        }
        for (FwiInversion process : processes) {
            assertThat(process.resultDigest()).isEqualTo(Reference.RUN.resultDigest());
            assertThat(process.round()).isEqualTo(Reference.RUN.round());
        }
    }

    @Test
    void restore_stateCopiedAfterTwoIterations_freshObjectFinishesBitIdentical() {
        FwiInversion first = new FwiInversion(new FwiProblem(FwiConfig.test()));
        int[] order = allShots();
        while (first.state().iteration() < 2) {
            first.runRound(order, first.newLedger(), FwiListener.NONE);
        }
        Map<String, Object> saved = first.state().copy();

        FwiInversion resumed = new FwiInversion(new FwiProblem(FwiConfig.test()));
        resumed.state().restore(saved);
        resumed.run(FwiListener.NONE);

        assertThat(resumed.resultDigest()).isEqualTo(Reference.RUN.resultDigest());
        assertThat(resumed.state().misfitHistory()).containsExactly(Reference.RUN.state().misfitHistory());
    }

    @Test
    void runRound_restoredMidRoundWithLedger_skipsFinishedShotsAndFinishesBitIdentical() {
        FwiInversion first = new FwiInversion(new FwiProblem(FwiConfig.test()));
        int[] order = allShots();
        first.runRound(order, first.newLedger(), FwiListener.NONE);
        first.runRound(order, first.newLedger(), FwiListener.NONE);
        ShotLedger partial = first.newLedger();
        first.computeShots(new int[] {4, 1, 2}, partial, FwiListener.NONE);
        Map<String, Object> savedState = first.state().copy();
        long[] savedRounds = partial.rounds().clone();
        double[] savedMisfits = partial.misfits().clone();
        double[] savedGradients = partial.gradients().clone();

        FwiInversion resumed = new FwiInversion(new FwiProblem(FwiConfig.test()));
        resumed.state().restore(savedState);
        ShotLedger ledger = resumed.newLedger();
        System.arraycopy(savedRounds, 0, ledger.rounds(), 0, savedRounds.length);
        System.arraycopy(savedMisfits, 0, ledger.misfits(), 0, savedMisfits.length);
        System.arraycopy(savedGradients, 0, ledger.gradients(), 0, savedGradients.length);
        AtomicInteger computed = new AtomicInteger();
        FwiListener counting = new FwiListener() {
            @Override
            public void shotCompleted(long round, ShotResult result, ShotLedger l) {
                computed.incrementAndGet();
            }
        };
        resumed.runRound(order, ledger, counting);
        assertThat(computed.get()).isEqualTo(FwiConfig.test().shots() - 3);
        resumed.run(FwiListener.NONE);

        assertThat(resumed.resultDigest()).isEqualTo(Reference.RUN.resultDigest());
    }

    @Test
    void completeRound_shotMissing_throwsAndKeepsRoundOpen() {
        FwiInversion inversion = new FwiInversion(new FwiProblem(FwiConfig.test()));
        ShotLedger ledger = inversion.newLedger();
        inversion.computeShots(new int[] {0}, ledger, FwiListener.NONE);
        assertThatThrownBy(() -> inversion.completeRound(ledger))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shot 1");
        assertThat(inversion.round()).isZero();
    }

    @Test
    void restore_arrayOfWrongLength_throwsAndLeavesStateUnchanged() {
        FwiInversion inversion = new FwiInversion(new FwiProblem(FwiConfig.test()));
        Map<String, Object> saved = inversion.state().copy();
        Map<String, Object> before = inversion.state().copy();
        ((double[]) saved.get("model"))[0] = 1234.0;
        saved.put("trial", new double[3]);
        assertThatThrownBy(() -> inversion.state().restore(saved))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'trial'");
        assertThat(inversion.state().model()).containsExactly((double[]) before.get("model"));
    }

    @Test
    void computeShot_afterLastIteration_throws() {
        assertThatThrownBy(() -> Reference.RUN.computeShot(0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("finished");
    }

    @Test
    void resultLine_finishedRun_isPrefixAnd64LowercaseHex() {
        assertThat(Reference.RUN.resultLine()).matches("result sha256=[0-9a-f]{64}");
    }

    private static int[] allShots() {
        int[] order = new int[FwiConfig.test().shots()];
        Arrays.setAll(order, s -> s);
        return order;
    }

    private static double distance(double[] a, double[] b) {
        double sum = 0.0;
        for (int i = 0; i < a.length; i++) {
            sum += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(sum);
    }
}
