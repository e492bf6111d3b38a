package io.ironloop.examples.circulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.RowDigest;
import io.ironloop.examples.skeleton.SkeletonRankMain;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The matrix power by circulation: skeleton, hand-written twin and a plain product agree bit for bit. */
class MatrixPowerTest {
    private static final MatrixPower PROBLEM = MatrixPower.preset("test", 16);

    /** {@code A^rounds X} with plain loops, columns of X as rows, digested in order. */
    private static String plain(MatrixPower p) {
        int n = p.n();
        double[][] a = new double[n][];
        for (int part = 0; part < p.parts(); part++) {
            double[] rows = p.rowsOf(part);
            for (int r = 0; r < p.block(); r++) {
                a[part * p.block() + r] = java.util.Arrays.copyOfRange(rows, r * n, (r + 1) * n);
            }
        }
        ResultDigest digest = new ResultDigest();
        for (int c = 0; c < n; c++) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = p.initial(i, c);
            }
            for (int round = 0; round < p.rounds(); round++) {
                double[] y = new double[n];
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        y[i] += a[i][j] * x[j];
                    }
                }
                x = y;
            }
            digest.putDoubles(x);
        }
        return digest.hex();
    }

    /** The hand-written version on one rank in this JVM. */
    static String handWritten(MatrixPower p) {
        MatrixPowerBlocks example = new MatrixPowerBlocks(p);
        Parameters params = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open("matrix-hand", 1);
                BlockLoop<MatrixPowerBlock> loop = BlockLoop.builder(example.layout(), example::create).parameters(params)
                        .group(cluster.group(0)).start()) {
            loop.run(example.steps(), example::step);
            TreeMap<Integer, double[]> rows = new TreeMap<>();
            loop.blocks().forEach(b -> rows.putAll(example.resultRows(b)));
            return RowDigest.of(loop.group(), rows);
        }
    }

    @Test
    void skeletonAndHandWritten_sameDigestAsThePlainProduct() {
        String expected = plain(PROBLEM);
        assertThat(SkeletonRankMain.reference(new MatrixPowerSkeleton(PROBLEM))).isEqualTo(expected);
        assertThat(handWritten(PROBLEM)).isEqualTo(expected);
        assertThat(plain(new MatrixPower(PROBLEM.n(), PROBLEM.parts(), PROBLEM.rounds() + 1, PROBLEM.seed())))
                .as("another round changes the result").isNotEqualTo(expected);
    }
}
