package io.ironloop.examples.swing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.examples.RowDigest;
import io.ironloop.examples.skeleton.SkeletonRankMain;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Skeleton;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The gas-storage valuation: the skeleton version against an independent single-process implementation (its own
 * backward induction and least squares by Gaussian elimination), and against its hand-written twin, bit for bit.
 */
class GasStorageTest {
    private static final GasStorage STORAGE = GasStorage.preset("test", 0);

    /** {@code V(0, ·)} by a plain backward induction over the whole grid, written without {@link GasStorage#compute}. */
    static double[][] independent(GasStorage g) {
        int levels = g.levels();
        int paths = g.paths();
        double[][] next = new double[levels][paths]; // V(T) = 0
        for (int t = g.steps() - 1; t >= 0; t--) {
            double[] x = new double[paths];
            double mean = 0;
            for (int j = 0; j < paths; j++) {
                x[j] = g.factor(t, j);
                mean += x[j];
            }
            mean /= paths;
            double sd = 0;
            for (double v : x) {
                sd += (v - mean) * (v - mean);
            }
            sd = Math.sqrt(sd / paths);
            double[][] v = new double[levels][paths];
            for (int s = g.lowest(t); s <= g.highest(t); s++) {
                for (int j = 0; j < paths; j++) {
                    double z = sd == 0 ? 0 : (x[j] - mean) / sd;
                    double best = Double.NEGATIVE_INFINITY;
                    double value = 0;
                    for (int d = -g.withdraw(t); d <= g.inject(t); d++) {
                        int s2 = s + d;
                        if (s2 < g.lowest(t + 1) || s2 > g.highest(t + 1)) {
                            continue;
                        }
                        double[] c = leastSquares(x, mean, sd, next[s2]);
                        double cash = GasStorage.cash(d, g.price(t, j));
                        double estimate = cash + g.discount() * (c[0] + c[1] * z + c[2] * z * z);
                        if (estimate > best) {
                            best = estimate;
                            value = cash + g.discount() * next[s2][j];
                        }
                    }
                    v[s][j] = value;
                }
            }
            next = v;
        }
        return next;
    }

    /** Coefficients of {@code 1, z, z²} fitting {@code y}, by Gaussian elimination on the normal equations. */
    private static double[] leastSquares(double[] x, double mean, double sd, double[] y) {
        if (sd == 0) {
            return new double[] {java.util.Arrays.stream(y).sum() / y.length, 0, 0};
        }
        double[][] m = new double[3][4];
        for (int j = 0; j < x.length; j++) {
            double z = (x[j] - mean) / sd;
            double[] phi = {1, z, z * z};
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    m[r][c] += phi[r] * phi[c];
                }
                m[r][3] += phi[r] * y[j];
            }
        }
        for (int p = 0; p < 3; p++) {
            for (int r = p + 1; r < 3; r++) {
                double f = m[r][p] / m[p][p];
                for (int c = p; c < 4; c++) {
                    m[r][c] -= f * m[p][c];
                }
            }
        }
        double[] b = new double[3];
        for (int r = 2; r >= 0; r--) {
            double s = m[r][3];
            for (int c = r + 1; c < 3; c++) {
                s -= m[r][c] * b[c];
            }
            b[r] = s / m[r][r];
        }
        return b;
    }

    /** {@code V(0, ·)} from the skeleton version on one rank in this JVM. */
    private static double[][] onTheSkeleton(GasStorage g) {
        GasStorageSkeleton app = new GasStorageSkeleton(g);
        double[][] v = new double[g.levels()][g.paths()];
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("swing-skeleton", 1);
                Skeleton<Domain2D> skeleton = Skeleton.builder(app.domain(), app.parts(), app.partition(), app).settings(app.settings())
                        .parameters(p).group(cluster.group(0)).start()) {
            skeleton.run();
            for (Map.Entry<Integer, Domain2D> e : skeleton.domains().entrySet()) {
                Box possessed = app.partition().possessed(e.getKey(), app.parts(), 0);
                for (int s = possessed.lo(0); s < possessed.hi(0); s++) {
                    for (int j = 0; j < g.paths(); j++) {
                        v[s][j] = e.getValue().get(s, j);
                    }
                }
            }
        }
        return v;
    }

    /** The hand-written version's result digest on one rank in this JVM. */
    static String handWritten(GasStorage g) {
        GasStorageBlocks example = new GasStorageBlocks(g);
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("swing-hand", 1);
                BlockLoop<GasStorageBlock> loop = BlockLoop.builder(example.layout(), example::create).parameters(p)
                        .group(cluster.group(0)).start()) {
            loop.run(example.steps(), example::step);
            TreeMap<Integer, double[]> rows = new TreeMap<>();
            loop.blocks().forEach(b -> rows.putAll(example.resultRows(b)));
            return RowDigest.of(loop.group(), rows);
        }
    }

    @Test
    void skeletonVersion_agreesWithAnIndependentSingleProcessValuation() {
        double[][] expected = independent(STORAGE);
        double[][] actual = onTheSkeleton(STORAGE);
        double value = 0;
        for (int s = 0; s < STORAGE.levels(); s++) {
            for (int j = 0; j < STORAGE.paths(); j++) {
                assertThat(actual[s][j]).as("V(0, %d, %d)", s, j).isCloseTo(expected[s][j], within(1e-9 * (1 + Math.abs(expected[s][j]))));
            }
        }
        for (int j = 0; j < STORAGE.paths(); j++) {
            value += actual[STORAGE.start()][j] / STORAGE.paths();
        }
        // a summer-winter spread of about 10 per unit against costs of 0.2 per unit in and out: the storage is worth something
        assertThat(value).as("storage value").isGreaterThan(1.0);
    }

    @Test
    void handWrittenTwin_sameResultLineAsTheSkeleton() {
        assertThat(handWritten(STORAGE)).isEqualTo(SkeletonRankMain.reference(new GasStorageSkeleton(STORAGE)));
    }

    @Test
    void partition_subdomainsAndShadowsChangeOverTheSteps() {
        Set<String> splits = new HashSet<>();
        Set<Integer> shadows = new HashSet<>();
        for (int t = 0; t < STORAGE.steps(); t++) {
            splits.add(java.util.Arrays.toString(STORAGE.bounds(t)));
            int[] n = STORAGE.needed(3, t);
            shadows.add(n[1] - n[0]);
        }
        assertThat(splits).as("splits of the levels").hasSizeGreaterThan(STORAGE.steps() / 2);
        assertThat(shadows).as("extents read by part 3").hasSizeGreaterThan(2);
    }
}
