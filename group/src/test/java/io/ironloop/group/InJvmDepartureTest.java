package io.ironloop.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A member that closes the group while the others wait for it in a collective (it ended with an exception)
 * releases them at once with {@link ProcessFailedException}; a member that closes after its last collective
 * disturbs nobody.
 */
class InJvmDepartureTest {

    @Test
    void memberClosesWhileOthersWaitInAllreduce_othersThrowPromptly_everyCloseReturnsAtOnce() throws Exception {
        int size = 3;
        try (InJvmCluster c = InJvmCluster.open("departure", size)) {
            long start = System.nanoTime();
            List<String> out = Ranks.run(size, r -> {
                ProcessGroup g = c.group(r);
                g.allreduce(1.0, ReduceOp.SUM);
                try {
                    if (r == 1) {
                        return "threw"; // as if the application threw here: try-with-resources closes the group
                    }
                    g.allreduce(new double[] {r}, ReduceOp.SUM);
                    return "no failure seen";
                } catch (ProcessFailedException e) {
                    return "released, failed " + e.failedRanks();
                } finally {
                    g.close();
                }
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(out).as("rank 2 waits on rank 0, which passes on whom it saw fail").containsExactly("released, failed [1]", "threw", "released, failed [1]");
            assertThat(seconds).as("nobody waits for the 30 s close timeout").isLessThan(10);
        }
    }

    @Test
    void randomCollectivesThenClose_seededOrders_noFalseFailure() throws Exception {
        Random random = new Random(13);
        for (int round = 0; round < 5; round++) {
            int size = 2 + random.nextInt(3);
            int collectives = 1 + random.nextInt(20);
            long[] delays = random.longs(size, 0, 30).toArray();
            try (InJvmCluster c = InJvmCluster.open("orderly-" + round, size)) {
                List<Double> sums = Ranks.run(size, r -> {
                    ProcessGroup g = c.group(r);
                    double last = 0;
                    for (int i = 0; i < collectives; i++) {
                        last = i % 2 == 0 ? g.allreduce((double) r, ReduceOp.SUM) : g.broadcast(new double[] {i}, 0)[0];
                        g.sendrecv(new double[] {r}, (r + 1) % size, (r + size - 1) % size, i);
                    }
                    pause(delays[r]);
                    g.close();
                    return last;
                });
                assertThat(sums).as("round %d: %d ranks, %d collectives", round, size, collectives).hasSize(size).doesNotContainNull();
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
