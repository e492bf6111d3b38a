package io.ironloop.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** A collective close is never reported as a failure, whichever rank leaves first. */
class InJvmCloseTest {

    /**
     * Seeded: every rank closes after a random short delay; a rank that returns from the close agreement
     * and leaves at once must not be reported failed by one that has not returned from it yet.
     */
    @Test
    void close_ranksLeaveInAnyOrder_noRankReportedFailed() throws Exception {
        Random seeds = new Random(1713);
        for (int trial = 0; trial < 40; trial++) {
            int size = 2 + seeds.nextInt(3);
            long[] delays = new long[size];
            for (int r = 0; r < size; r++) {
                delays[r] = seeds.nextInt(3) == 0 ? seeds.nextInt(2_000_000) : 0;
            }
            List<String> failures = new CopyOnWriteArrayList<>();
            GroupListener record = new GroupListener() {
                @Override
                public void failed(Set<Integer> worldRanks) {
                    failures.add("failed " + worldRanks);
                }
            };
            try (InJvmCluster c = InJvmCluster.open("close-" + trial, size, r -> record)) {
                Ranks.run(size, r -> {
                    ProcessGroup g = c.group(r);
                    g.allreduce(1.0, ReduceOp.SUM);
                    LockSupport.parkNanos(delays[r]);
                    g.close();
                    return r;
                });
            }
            assertThat(failures).as("trial %d, %d ranks", trial, size).isEmpty();
        }
    }
}
