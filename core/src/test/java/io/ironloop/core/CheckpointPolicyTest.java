package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CheckpointPolicyTest {
    private static final long S = 1_000_000_000L;

    @Test
    void everyCalls_dueOnEveryNthCall() {
        CheckpointPolicy p = CheckpointPolicy.everyCalls(3);
        assertThat(new boolean[] {p.due(0), p.due(0), p.due(0), p.due(0), p.due(0), p.due(0)})
                .containsExactly(false, false, true, false, false, true);
    }

    @Test
    void minInterval_dueOnlyAfterGapSinceLastCheckpoint() {
        CheckpointPolicy.MinInterval p = new CheckpointPolicy.MinInterval(Duration.ofSeconds(10), 0);
        assertThat(p.due(9 * S)).isFalse();
        assertThat(p.due(10 * S)).isTrue();
        p.taken(10 * S, Duration.ZERO);
        assertThat(p.due(15 * S)).isFalse();
        assertThat(p.due(20 * S)).isTrue();
    }

    @Test
    void minInterval_injectedClock_firstDueOneGapAfterConstructionNotAtOnce() {
        long[] clock = {100 * S};
        CheckpointPolicy p = CheckpointPolicy.minInterval(Duration.ofSeconds(10), () -> clock[0]);
        clock[0] = 500 * S; // the clock moving after construction does not move the start
        assertThat(p.due(100 * S)).as("at construction").isFalse();
        assertThat(p.due(109 * S)).isFalse();
        assertThat(p.due(110 * S)).isTrue();
        p.taken(112 * S, Duration.ZERO);
        assertThat(p.due(121 * S)).as("counts from the last checkpoint").isFalse();
        assertThat(p.due(122 * S)).isTrue();
    }

    @Test
    void never_isNeverDue() {
        CheckpointPolicy p = CheckpointPolicy.never();
        assertThat(p.due(0)).isFalse();
        assertThat(p.due(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void allOf_bothDeliaGatesMustPass() {
        CheckpointPolicy p = CheckpointPolicy.allOf(CheckpointPolicy.everyCalls(2), new CheckpointPolicy.MinInterval(Duration.ofSeconds(5), 0));
        assertThat(p.due(1 * S)).isFalse(); // call 1, 1 s
        assertThat(p.due(2 * S)).isFalse(); // call 2 passes, time does not
        assertThat(p.due(6 * S)).isFalse(); // time passes, call 3 does not
        assertThat(p.due(7 * S)).isTrue();  // call 4 and time both pass
    }

    @Test
    void anyOf_onDemandTriggerForcesCheckpoint() {
        AtomicBoolean trigger = new AtomicBoolean();
        CheckpointPolicy p = CheckpointPolicy.anyOf(CheckpointPolicy.everyCalls(100), CheckpointPolicy.onDemand(trigger));
        assertThat(p.due(0)).isFalse();
        trigger.set(true);
        assertThat(p.due(0)).isTrue();
        assertThat(p.due(0)).isFalse();
    }

    @Test
    void youngDaly_intervalIsSqrtTwoCostTimesMtbf() {
        CheckpointCosts costs = new CheckpointCosts();
        long[] now = {0};
        CheckpointPolicy.YoungDaly p = (CheckpointPolicy.YoungDaly) CheckpointPolicy.youngDaly(costs,
                MtbfEstimate.learning(Duration.ofSeconds(3600), () -> now[0]), () -> now[0]);
        assertThat(p.due(0)).as("the first checkpoint measures a cost").isTrue();
        p.taken(0, Duration.ZERO);
        assertThat(p.due(1000 * S)).as("no cost measured yet: the line is still being written").isFalse();
        costs.record(Duration.ofMillis(500));
        costs.record(Duration.ofMillis(1500));
        // mean cost 1 s, MTBF 3600 s -> sqrt(7200) = 84.85 s
        assertThat(p.interval().orElseThrow().toMillis()).isBetween(84_800L, 84_900L);
        assertThat(p.due(80 * S)).isFalse();
        assertThat(p.due(85 * S)).isTrue();
    }

    @Test
    void youngDaly_intervalFollowsTheMeasuredCostAndTheLearnedMtbf() {
        CheckpointCosts costs = new CheckpointCosts();
        long[] now = {0};
        MtbfEstimate mtbf = MtbfEstimate.learning(Duration.ofSeconds(3600), () -> now[0]);
        CheckpointPolicy.YoungDaly p = (CheckpointPolicy.YoungDaly) CheckpointPolicy.youngDaly(costs, mtbf, () -> now[0]);
        for (int i = 0; i < CheckpointCosts.WINDOW; i++) {
            costs.record(Duration.ofSeconds(2));
        }
        assertThat(p.interval().orElseThrow().toMillis()).as("sqrt(2*2*3600)").isBetween(119_990L, 120_010L);
        for (int i = 0; i < CheckpointCosts.WINDOW; i++) {
            costs.record(Duration.ofMillis(500)); // the level got 4 times cheaper: the window forgets the old costs
        }
        assertThat(p.interval().orElseThrow().toMillis()).as("sqrt(2*0.5*3600)").isBetween(59_990L, 60_010L);
        mtbf.failureSeen(); // (3600 + 0) / (1 + 1)
        assertThat(p.interval().orElseThrow().toMillis()).as("sqrt(2*0.5*1800)").isBetween(42_420L, 42_440L);
    }
}
