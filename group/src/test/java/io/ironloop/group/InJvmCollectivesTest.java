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

    /**
     * Large arrays take the reduce-scatter + allgather path: any group size, segments that do not divide evenly
     * (the last ones shorter or empty), several chunks per segment, every element type — each bit-identical to the
     * small path's rank-order combination.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void allreduce_largeArrays_bitIdenticalToRankOrderCombination(int size) throws Exception {
        int n = 3 * (1 << 17) + 5; // 3 MiB + 40 bytes of doubles: several chunks per segment at 2 and 3 ranks
        try (InJvmCluster c = InJvmCluster.open("large-" + size, size)) {
            List<double[]> sums = Ranks.run(size, r -> c.group(r).allreduce(values(r, n), ReduceOp.SUM));
            List<long[]> products = Ranks.run(size, r -> c.group(r).allreduce(longs(r, n), ReduceOp.PROD));
            List<int[]> mins = Ranks.run(size, r -> c.group(r).allreduce(ints(r, n), ReduceOp.MIN));
            List<double[]> maxima = Ranks.run(size, r -> c.group(r).allreduce(values(r, n), ReduceOp.MAX));
            double[] sum = expectedSum(size, n);
            double[] max = values(0, n);
            long[] product = longs(0, n);
            int[] min = ints(0, n);
            for (int r = 1; r < size; r++) {
                long[] l = longs(r, n);
                int[] i = ints(r, n);
                double[] d = values(r, n);
                for (int k = 0; k < n; k++) {
                    max[k] = Math.max(max[k], d[k]);
                    product[k] *= l[k];
                    min[k] = Math.min(min[k], i[k]);
                }
            }
            for (int r = 0; r < size; r++) {
                assertArrayEquals(sum, sums.get(r), 0.0, "rank " + r);
                assertArrayEquals(product, products.get(r), "rank " + r);
                assertArrayEquals(min, mins.get(r), "rank " + r);
                assertArrayEquals(max, maxima.get(r), 0.0, "rank " + r);
            }
        }
    }

    /** One rank's array is small (the small path), the others' large: every rank throws, none waits for the others. */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    @org.junit.jupiter.api.Timeout(60)
    void allreduce_oneRankSmallOthersLarge_everyRankThrowsIllegalArgument(int smallRank) throws Exception {
        int large = 1 << 16; // 512 KiB of doubles
        try (InJvmCluster c = InJvmCluster.open("mixed-" + smallRank, 3)) {
            List<String> outcomes = Ranks.run(3, r -> {
                try {
                    c.group(r).allreduce(new double[r == smallRank ? 4 : large], ReduceOp.SUM);
                    return "returned";
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            });
            assertThat(outcomes).hasSize(3).allSatisfy(o -> assertThat(o).contains("differ in length"));
            // the group is still usable: the next collective pairs up on every rank
            List<double[]> next = Ranks.run(3, r -> c.group(r).allreduce(values(r, large), ReduceOp.SUM));
            assertArrayEquals(expectedSum(3, large), next.get(1), 0.0);
        }
    }

    /**
     * A member fails before it enters a large allreduce the others are already inside: the survivors throw
     * {@link ProcessFailedException} naming it instead of waiting for its pieces and results. A member that fails
     * inside the operation, after its first pieces arrived, is {@code LargeAllreduceFailureTest}'s case (it needs the
     * in-JVM hub's message filter to make certain that nobody can finish first).
     */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void allreduce_large_memberFailsBeforeEntering_survivorsThrowProcessFailed() throws Exception {
        int n = 1 << 20; // 8 MiB of doubles: 2 chunks per segment at 4 ranks
        java.util.concurrent.CountDownLatch entering = new java.util.concurrent.CountDownLatch(3);
        try (InJvmCluster c = InJvmCluster.open("large-fail", 4)) {
            Thread crasher = new Thread(() -> {
                try {
                    entering.await();
                    Thread.sleep(200); // the survivors block waiting for rank 2 (pacing, not synchronisation)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.crash(2);
            });
            crasher.start();
            List<String> outcomes = Ranks.run(4, r -> {
                if (r == 2) {
                    return "never entered";
                }
                double[] mine = new double[n];
                Arrays.setAll(mine, k -> r + (double) k);
                entering.countDown();
                try {
                    c.group(r).allreduce(mine, ReduceOp.SUM);
                    return "finished";
                } catch (ProcessFailedException e) {
                    return "failed " + e.failedRanks();
                }
            });
            crasher.join();
            for (int r : new int[] {0, 1, 3}) {
                assertThat(outcomes.get(r)).as("rank " + r).isEqualTo("failed [2]");
            }
        }
    }

    private static long[] longs(int rank, int n) {
        java.util.Random random = new java.util.Random(99 + rank);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextLong();
        }
        return v;
    }

    private static int[] ints(int rank, int n) {
        java.util.Random random = new java.util.Random(77 + rank);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextInt();
        }
        return v;
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
