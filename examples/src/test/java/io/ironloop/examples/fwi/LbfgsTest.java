package io.ironloop.examples.fwi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LbfgsTest {
    private static final double[] ONES = {1, 1, 1};

    @Test
    void direction_emptyMemory_isMinusPreconditionedGradient() {
        Lbfgs lbfgs = new Lbfgs(3, 2);
        double[] out = new double[3];
        lbfgs.direction(new double[] {1, -2, 3}, new double[] {1, 0.5, 0}, out);
        assertThat(out).containsExactly(-1, 1, -0.0);
    }

    @Test
    void direction_afterPushes_satisfiesSecantEquationOfNewestPair() {
        Lbfgs lbfgs = new Lbfgs(3, 2);
        lbfgs.push(new double[] {1, 0, 0.5}, new double[] {2, 0.1, 1});
        double[] s = {0.2, -1, 0.3};
        double[] y = {0.5, -3, 1};
        assertThat(lbfgs.push(s, y)).isTrue();
        double[] out = new double[3];
        lbfgs.direction(y, ONES, out); // -H y = -s
        for (int i = 0; i < 3; i++) {
            assertThat(out[i]).isCloseTo(-s[i], within(1e-12));
        }
    }

    @Test
    void push_nonPositiveCurvature_isRejected() {
        Lbfgs lbfgs = new Lbfgs(3, 2);
        assertThat(lbfgs.push(new double[] {1, 0, 0}, new double[] {-1, 0, 0})).isFalse();
        assertThat(lbfgs.size()).isZero();
    }

    @Test
    void push_beyondMemory_dropsOldestPair() {
        Lbfgs lbfgs = new Lbfgs(3, 2);
        lbfgs.push(new double[] {1, 0, 0}, new double[] {1, 0, 0});
        lbfgs.push(new double[] {0, 1, 0}, new double[] {0, 1, 0});
        lbfgs.push(new double[] {0, 0, 1}, new double[] {0, 0, 1});
        assertThat(lbfgs.size()).isEqualTo(2);
        assertThat(lbfgs.ring()).containsExactly(2, 1);
        assertThat(Arrays.copyOfRange(lbfgs.sHistory(), 0, 3)).containsExactly(0, 0, 1);
    }

    @Test
    void direction_restoredArraysInFreshInstance_sameBits() {
        Lbfgs original = new Lbfgs(3, 2);
        original.push(new double[] {1, 0.3, 0}, new double[] {1.5, 0.2, 0.1});
        original.push(new double[] {0.1, 1, 0}, new double[] {0.3, 2, 0.1});
        original.push(new double[] {0, 0.2, 1}, new double[] {0, 0.1, 0.7});
        Lbfgs restored = new Lbfgs(3, 2);
        System.arraycopy(original.sHistory(), 0, restored.sHistory(), 0, 6);
        System.arraycopy(original.yHistory(), 0, restored.yHistory(), 0, 6);
        System.arraycopy(original.ring(), 0, restored.ring(), 0, 2);
        double[] a = new double[3];
        double[] b = new double[3];
        original.direction(new double[] {0.3, -0.7, 1.1}, ONES, a);
        restored.direction(new double[] {0.3, -0.7, 1.1}, ONES, b);
        assertThat(b).containsExactly(a);
    }
}
