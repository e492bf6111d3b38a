package io.ironloop.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class InJvmCollectivesTest {

    static double[] values(int rank, int n) {
        return TestData.values(rank, n);
    }

    static double[] expectedSum(int size, int n) {
        return TestData.expectedSum(size, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void allreduce_anySize_bitIdenticalToRankOrderSum(int size) throws Exception {
        int n = 1000;
        try (InJvmCluster c = InJvmCluster.open("coll-" + size, size)) {
            List<double[]> first = Ranks.run(size, r -> c.group(r).allreduce(values(r, n), ReduceOp.SUM));
            List<double[]> second = Ranks.run(size, r -> c.group(r).allreduce(values(r, n), ReduceOp.SUM));
            double[] expected = expectedSum(size, n);
            for (int r = 0; r < size; r++) {
                assertArrayEquals(expected, first.get(r), 0.0, "rank " + r);
                assertArrayEquals(expected, second.get(r), 0.0, "rank " + r + ", second run");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void collectives_anySize_correct(int size) throws Exception {
        try (InJvmCluster c = InJvmCluster.open("coll2-" + size, size)) {
            List<String> results = Ranks.run(size, r -> {
                ProcessGroup g = c.group(r);
                g.barrier();
                long[] mins = g.allreduce(new long[] {r + 10, -r}, ReduceOp.MIN);
                int[] maxs = g.allreduce(new int[] {r, 2 * r}, ReduceOp.MAX);
                long prod = g.allreduce((long) (r + 1), ReduceOp.PROD);
                double sum = g.allreduce(0.5 * r, ReduceOp.SUM);
                byte[] b = g.broadcast(r == size - 1 ? new byte[] {7, 8} : null, size - 1);
                double[] d = g.broadcast(r == 0 ? new double[] {1.5, -2} : null, 0);
                byte[][] all = g.allgather(new byte[] {(byte) r});
                byte[][] gathered = g.gather(new byte[] {(byte) (r * 2)}, 0);
                return Arrays.toString(mins) + Arrays.toString(maxs) + prod + "/" + sum + Arrays.toString(b) + Arrays.toString(d)
                        + Arrays.deepToString(all) + (r == 0 ? Arrays.deepToString(gathered) : String.valueOf(gathered));
            });
            long fact = 1;
            double sum = 0;
            StringBuilder all = new StringBuilder("[");
            StringBuilder gathered = new StringBuilder("[");
            for (int r = 0; r < size; r++) {
                fact *= r + 1;
                sum += 0.5 * r;
                all.append(r == 0 ? "" : ", ").append("[").append(r).append("]");
                gathered.append(r == 0 ? "" : ", ").append("[").append(r * 2).append("]");
            }
            String common = "[10, " + (1 - size) + "][" + (size - 1) + ", " + 2 * (size - 1) + "]" + fact + "/" + sum + "[7, 8][1.5, -2.0]"
                    + all + "]";
            assertThat(results.get(0)).isEqualTo(common + gathered + "]");
            for (int r = 1; r < size; r++) {
                assertThat(results.get(r)).isEqualTo(common + "null");
            }
        }
    }

    @Test
    void allreduce_largerThanOneChunk_bitIdentical() throws Exception {
        int n = 3 * (1 << 17) + 5; // several 1 MiB chunks
        try (InJvmCluster c = InJvmCluster.open("big", 3)) {
            List<double[]> res = Ranks.run(3, r -> c.group(r).allreduce(values(r, n), ReduceOp.SUM));
            double[] expected = expectedSum(3, n);
            for (double[] r : res) {
                assertArrayEquals(expected, r, 0.0);
            }
        }
    }

    @Test
    void allreduce_lengthsDiffer_everyRankThrowsIllegalArgument() {
        try (InJvmCluster c = InJvmCluster.open("mismatch", 3)) {
            assertThatThrownBy(() -> Ranks.run(3, r -> c.group(r).allreduce(new double[r == 2 ? 3 : 2], ReduceOp.SUM)))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("differ in length");
        }
    }

    @Test
    void sendrecv_ringHaloExchange_receivesNeighbours() throws Exception {
        int size = 5;
        try (InJvmCluster c = InJvmCluster.open("halo", size)) {
            List<double[]> res = Ranks.run(size, r -> {
                ProcessGroup g = c.group(r);
                double[] fromLeft = g.sendrecv(new double[] {r}, (r + 1) % size, (r + size - 1) % size, 3);
                double[] fromRight = g.sendrecv(new double[] {r * 10}, (r + size - 1) % size, (r + 1) % size, 4);
                return new double[] {fromLeft[0], fromRight[0]};
            });
            for (int r = 0; r < size; r++) {
                assertArrayEquals(new double[] {(r + size - 1) % size, ((r + 1) % size) * 10}, res.get(r), 0.0);
            }
        }
    }

    @Test
    void receive_tagsMatchedIndependently_inOrderPerTag() throws Exception {
        try (InJvmCluster c = InJvmCluster.open("tags", 2)) {
            List<String> res = Ranks.run(2, r -> {
                ProcessGroup g = c.group(r);
                if (r == 0) {
                    g.send(1, 1, new byte[] {1});
                    g.send(1, 2, new byte[] {2});
                    g.send(1, 1, new byte[] {3});
                    return "";
                }
                return Arrays.toString(g.receive(0, 2)) + Arrays.toString(g.receive(0, 1)) + Arrays.toString(g.receive(0, 1));
            });
            assertThat(res.get(1)).isEqualTo("[2][1][3]");
        }
    }

    @Test
    void send_badRankOrTag_illegalArgument() {
        try (InJvmCluster c = InJvmCluster.open("bad", 2)) {
            assertThatThrownBy(() -> c.group(0).send(2, 0, new byte[0])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a rank");
            assertThatThrownBy(() -> c.group(0).send(1, -1, new byte[0])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("non-negative");
        }
    }
}
