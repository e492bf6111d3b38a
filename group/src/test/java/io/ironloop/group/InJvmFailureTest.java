package io.ironloop.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InJvmFailureTest {

    @Test
    void crashDuringAllreduce_survivorsThrow_shrinkGivesWorkingGroup() throws Exception {
        int size = 4;
        CountDownLatch entered = new CountDownLatch(size - 1);
        try (InJvmCluster c = InJvmCluster.open("crash", size)) {
            List<String> out = Ranks.run(size, r -> {
                ProcessGroup g = c.group(r);
                g.allreduce(1.0, ReduceOp.SUM);
                if (r == 2) {
                    try {
                        entered.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    c.crash(2);
                    return "crashed";
                }
                entered.countDown();
                try {
                    g.allreduce(new double[] {r}, ReduceOp.SUM);
                    return "no failure seen";
                } catch (ProcessFailedException e) {
                    assertThat(e.failedRanks()).containsExactly(2);
                    assertThatThrownBy(g::barrier).isInstanceOf(ProcessFailedException.class); // revoked for the next call too
                    ShrinkResult s = g.shrink();
                    ProcessGroup h = s.group();
                    double sum = h.allreduce((double) r, ReduceOp.SUM);
                    return h.rank() + "/" + h.size() + " map=" + java.util.Arrays.toString(s.oldToNew()) + " sum=" + sum
                            + " world=" + h.worldRank(h.rank());
                }
            });
            assertThat(out).containsExactly("0/3 map=[0, 1, -1, 2] sum=4.0 world=0", "1/3 map=[0, 1, -1, 2] sum=4.0 world=1", "crashed",
                    "2/3 map=[0, 1, -1, 2] sum=4.0 world=3");
        }
    }

    @Test
    void agree_coordinatorCrashesBeforeDeciding_survivorsAgreeOnSameValue() throws Exception {
        int size = 4;
        try (InJvmCluster c = InJvmCluster.open("agree", size)) {
            List<Long> out = Ranks.run(size, r -> {
                ProcessGroup g = c.group(r);
                if (r == 0) {
                    await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ofMillis(100)).until(() -> true);
                    c.crash(0);
                    return -1L;
                }
                return g.agree(100 + r);
            });
            assertThat(out).containsExactly(-1L, 101L, 101L, 101L);
        }
    }

    @Test
    void listener_crash_reportsSuspectFailedAndLeaderChange() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        GroupListener l = new GroupListener() {
            @Override
            public void suspected(int worldRank) {
                events.add("suspected " + worldRank);
            }

            @Override
            public void failed(Set<Integer> worldRanks) {
                events.add("failed " + worldRanks);
            }

            @Override
            public void leaderChanged(int oldLeader, int newLeader) {
                events.add("leader " + oldLeader + "->" + newLeader);
            }
        };
        try (InJvmCluster c = InJvmCluster.open("listen", 3, r -> r == 1 ? l : GroupListener.NONE)) {
            await().until(() -> events.contains("leader -1->0"));
            assertThat(c.group(1).leader()).isZero();
            c.crash(0);
            await().until(() -> events.contains("leader 0->1"));
            assertThat(events).containsSubsequence("suspected 0", "failed [0]", "leader 0->1");
            assertThat(c.group(1).failedRanks()).containsExactly(0);
            assertThat(c.group(2).leader()).isEqualTo(1);
        }
    }

    @Test
    void close_thenOperation_illegalState() {
        InJvmCluster c = InJvmCluster.open("closed", 2);
        c.close();
        assertThatThrownBy(() -> c.group(0).barrier()).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void shrinkTwice_sameGroup_illegalState() throws Exception {
        try (InJvmCluster c = InJvmCluster.open("twice", 2)) {
            Ranks.run(2, r -> c.group(r).shrink());
            assertThatThrownBy(() -> c.group(0).shrink()).isInstanceOf(IllegalStateException.class).hasMessageContaining("already shrunk");
        }
    }
}
