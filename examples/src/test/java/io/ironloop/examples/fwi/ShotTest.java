package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ShotTest {
    private static final FwiProblem PROBLEM = new FwiProblem(FwiConfig.test());

    @Test
    void compute_smoothRandomDirection_matchesCentralFiniteDifference() {
        double[] model = PROBLEM.initialModel();
        double[] direction = smoothRandomDirection(new Random(20240607L));
        double step = 0.1; // m/s: truncation error ~ step^2, rounding ~ 1e-16 / step

        double adjoint = 0.0;
        double[] plus = model.clone();
        double[] minus = model.clone();
        for (int i = 0; i < model.length; i++) {
            plus[i] += step * direction[i];
            minus[i] -= step * direction[i];
        }
        double finiteDifference = 0.0;
        for (int shot = 0; shot < PROBLEM.shots(); shot++) {
            double[] gradient = Shot.compute(PROBLEM, model, shot).gradient();
            for (int i = 0; i < model.length; i++) {
                adjoint += gradient[i] * direction[i];
            }
            finiteDifference += (Shot.misfit(PROBLEM, plus, shot) - Shot.misfit(PROBLEM, minus, shot))
                    / (2 * step);
        }

        assertThat(Math.abs(adjoint)).isGreaterThan(0.0);
        assertThat(Math.abs(finiteDifference - adjoint) / Math.abs(adjoint)).isLessThanOrEqualTo(1e-4);
    }

    @Test
    void compute_wavefieldOverBudget_sameBitsAsStoredWavefield() {
        FwiProblem small = new FwiProblem(FwiConfig.test().toBuilder().wavefieldBudgetBytes(1 << 20).build());
        assertThat(Shot.segmentLength(small)).isLessThan(small.steps() / 4);
        assertThat(Shot.segmentLength(PROBLEM)).isEqualTo(PROBLEM.steps());
        double[] model = PROBLEM.initialModel();

        ShotResult stored = Shot.compute(PROBLEM, model, 2);
        ShotResult recomputed = Shot.compute(small, model, 2);

        assertThat(Double.doubleToRawLongBits(recomputed.misfit()))
                .isEqualTo(Double.doubleToRawLongBits(stored.misfit()));
        assertThat(recomputed.gradient()).containsExactly(stored.gradient());
    }

    @Test
    void misfit_sameModelAndShot_bitIdenticalToMisfitOfCompute() {
        double[] model = PROBLEM.initialModel();
        assertThat(Shot.misfit(PROBLEM, model, 3)).isEqualTo(Shot.compute(PROBLEM, model, 3).misfit());
    }

    @Test
    void compute_trueModel_zeroMisfitAndGradient() {
        ShotResult result = Shot.compute(PROBLEM, PROBLEM.trueModel(), 0);
        assertThat(result.misfit()).isZero();
        assertThat(result.gradient()).containsOnly(0.0);
    }

    @Test
    void compute_backgroundModel_positiveMisfit() {
        assertThat(Shot.compute(PROBLEM, PROBLEM.initialModel(), 0).misfit()).isPositive();
    }

    @Test
    void compute_wrongModelLengthOrShot_throws() {
        assertThatThrownBy(() -> Shot.compute(PROBLEM, new double[5], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5 velocities");
        assertThatThrownBy(() -> Shot.compute(PROBLEM, PROBLEM.initialModel(), PROBLEM.shots()))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** A sum of a few Gaussian bumps of random place, width and sign, scaled to at most 1 m/s. */
    private static double[] smoothRandomDirection(Random random) {
        FwiConfig c = PROBLEM.config();
        double[] direction = new double[c.modelSize()];
        for (int bump = 0; bump < 5; bump++) {
            double cx = random.nextDouble() * c.nx();
            double cz = random.nextDouble() * c.nz();
            double width = 3 + 4 * random.nextDouble();
            double amplitude = random.nextGaussian();
            for (int iz = 0; iz < c.nz(); iz++) {
                for (int ix = 0; ix < c.nx(); ix++) {
                    double r2 = (ix - cx) * (ix - cx) + (iz - cz) * (iz - cz);
                    direction[iz * c.nx() + ix] += amplitude * Math.exp(-r2 / (2 * width * width));
                }
            }
        }
        double largest = 0.0;
        for (double d : direction) {
            largest = Math.max(largest, Math.abs(d));
        }
        for (int i = 0; i < direction.length; i++) {
            direction[i] /= largest;
        }
        return direction;
    }
}
