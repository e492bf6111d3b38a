package io.ironloop.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RoundStateTest {

    @Test
    void start_everySizeAndDoneSet_blocksAreContiguousBalancedAndCoverTheRemainingTasks() {
        Random random = new Random(7);
        for (int size = 1; size <= 6; size++) {
            for (int taskCount = 0; taskCount <= 40; taskCount++) {
                BitSet done = new BitSet();
                for (int t = 0; t < taskCount; t++) {
                    if (random.nextInt(3) == 0) {
                        done.set(t);
                    }
                }
                List<Integer> remaining = new ArrayList<>();
                for (int t = done.nextClearBit(0); t < taskCount; t = done.nextClearBit(t + 1)) {
                    remaining.add(t);
                }
                List<Integer> concatenated = new ArrayList<>();
                int min = Integer.MAX_VALUE;
                int max = 0;
                for (int rank = 0; rank < size; rank++) {
                    List<Integer> block = drain(RoundState.start(0, taskCount, done, rank, size));
                    concatenated.addAll(block);
                    min = Math.min(min, block.size());
                    max = Math.max(max, block.size());
                }
                assertThat(concatenated).as("size %d, %d tasks", size, taskCount).isEqualTo(remaining);
                assertThat(max - min).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void start_tenTasksOnFourRanks_firstBlocksAreTheLongerOnes() {
        BitSet none = new BitSet();
        assertThat(drain(RoundState.start(0, 10, none, 0, 4))).containsExactly(0, 1, 2);
        assertThat(drain(RoundState.start(0, 10, none, 1, 4))).containsExactly(3, 4, 5);
        assertThat(drain(RoundState.start(0, 10, none, 2, 4))).containsExactly(6, 7);
        assertThat(drain(RoundState.start(0, 10, none, 3, 4))).containsExactly(8, 9);
    }

    @Test
    void giveTail_halfRoundedUpFromTheEnd_keepsTheHeadAndRecordsTransfers() {
        RoundState s = RoundState.start(3, 5, new BitSet(), 0, 1);
        assertThat(s.next()).isEqualTo(0);
        assertThat(s.giveTail(2)).containsExactly(3, 4);
        assertThat(s.giveTail(1)).containsExactly(2);
        assertThat(s.giveTail(2)).containsExactly(1);
        assertThat(s.giveTail(1)).isEmpty();
        assertThat(s.next()).isNull();
        RoundReport r = s.report();
        assertThat(r.executed()).containsExactly(0);
        assertThat(r.givenAway()).containsExactly(new RoundReport.Transfer(2, List.of(3, 4)), new RoundReport.Transfer(1, List.of(2)),
                new RoundReport.Transfer(2, List.of(1)));
        assertThat(r.givenAwayCount()).isEqualTo(4);
    }

    @Test
    void receiveAndStart_stolenTasks_firstStartsAtOnceAndCannotBeGivenOnBeforeRunning() {
        RoundState s = RoundState.start(0, 0, new BitSet(), 1, 2);
        assertThat(s.receiveAndStart(0, List.of(7, 8))).isEqualTo(7);
        assertThat(s.giveTail(3)).containsExactly(8);
        assertThat(s.report().stolen()).containsExactly(new RoundReport.Transfer(0, List.of(7, 8)));
        assertThat(s.report().executed()).containsExactly(7);
    }

    @Test
    void fingerprint_differentCountOrDoneSet_differs() {
        BitSet a = new BitSet();
        a.set(3);
        BitSet b = new BitSet();
        b.set(4);
        assertThat(RoundState.fingerprint(10, a)).isNotEqualTo(RoundState.fingerprint(10, b))
                .isNotEqualTo(RoundState.fingerprint(11, a));
        assertThat(RoundState.fingerprint(10, a)).isEqualTo(RoundState.fingerprint(10, (BitSet) a.clone()));
    }

    @Test
    void tags_roundsMapIntoTheReservedRange_twoDistinctTagsPerRound() {
        assertThat(StealMessages.serviceTag(0)).isEqualTo(1 << 30);
        assertThat(StealMessages.replyTag(0)).isEqualTo((1 << 30) + 1);
        assertThat(StealMessages.serviceTag(1)).isEqualTo((1 << 30) + 2);
        assertThat(StealMessages.replyTag(StealMessages.ROUND_PERIOD - 1)).isEqualTo(Integer.MAX_VALUE);
        assertThat(StealMessages.serviceTag(StealMessages.ROUND_PERIOD)).isEqualTo(StealMessages.serviceTag(0));
    }

    private static List<Integer> drain(RoundState s) {
        List<Integer> out = new ArrayList<>();
        for (Integer t = s.next(); t != null; t = s.next()) {
            out.add(t);
        }
        return out;
    }
}
