package io.ironloop.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The formulas against cases computed by hand. */
class PlannerTest {
    /** 1,000 nodes of one rank, node MTBF 1,000 days: one node failure a day. */
    private static PlanInput.Builder oneFailureADay() {
        return PlanInput.builder().ranks(1000).statePerRank(1L << 30).mtbfNode(Duration.ofDays(1000))
                .cost(PlanLevel.SHARED, new LevelCost(200, 100, "given")).cost(PlanLevel.PARTNER, new LevelCost(2, 1, "given"));
    }

    @Test
    void sharedAlone_youngDalyIntervalOverheadAndLostWork_asComputedByHand() {
        Candidate c = Planner.evaluate(oneFailureADay().build(), List.of(PlanLevel.SHARED)).orElseThrow();
        LevelPlan shared = c.levels().get(0);
        // tau = sqrt(2 * 200 s * 86,400 s) = 5,878.78 s
        assertThat(shared.intervalSeconds()).isCloseTo(5878.775, offset(0.01));
        assertThat(c.expected().overheadPct()).as("200 / 5,878.78").isCloseTo(3.4021, offset(0.0001));
        assertThat(c.expected().failuresPerDay()).isCloseTo(1.0, offset(1e-9));
        // one failure a day loses tau / 2 + C = 2,939.39 + 200 s and restores in 100 s
        assertThat(c.expected().lostWorkSecondsPerDay()).isCloseTo(3139.388, offset(0.01));
        assertThat(c.expected().recoverySecondsPerDay()).isCloseTo(100, offset(1e-9));
        assertThat(c.expected().probabilityOfLosingWorkPerDay()).as("1 - e^-1").isCloseTo(0.63212, offset(1e-5));
        assertThat(c.expected().wastePct()).isCloseTo(3.4021 + 100 * 3239.388 / 86_400, offset(0.0001));
    }

    @Test
    void partnerThenShared_partnerTakesTheNodeFailures_sharedOnlyThoseBothPartnersSuffer() {
        Candidate c = Planner.evaluate(oneFailureADay().build(), List.of(PlanLevel.PARTNER, PlanLevel.SHARED)).orElseThrow();
        LevelPlan partner = c.levels().get(0);
        LevelPlan shared = c.levels().get(1);
        // the partner's window: its interval sqrt(2 * 2 * 86,400) = 587.88 s plus its restore, 1 s; the partner node
        // fails in it with probability 1 - exp(-588.88 / 86,400,000) = 6.8157e-6
        double p = -Math.expm1(-(Math.sqrt(2 * 2 * 86_400.0) + 1) / 86_400_000.0);
        assertThat(c.escalation()).isCloseTo(p, offset(1e-9));
        assertThat(partner.intervalSeconds()).isCloseTo(Math.sqrt(2 * 2 * 86_400 / (1 - p)), offset(1e-3));
        assertThat(shared.failuresPerSecond() * 86_400).isCloseTo(c.escalation(), offset(1e-15));
        assertThat(shared.intervalSeconds()).isCloseTo(Math.sqrt(2 * 200 * 86_400 / c.escalation()), offset(1e-3));
        double overhead = 2 / partner.intervalSeconds() + 200 / shared.intervalSeconds();
        assertThat(c.expected().overheadPct()).isCloseTo(100 * overhead, offset(1e-9));
        assertThat(c.expected().overheadPct()).as("far below the shared file system's alone").isLessThan(0.5);
    }

    @Test
    void reedSolomon_survivesAsManyLossesAsItHasParity() {
        PlanInput in = oneFailureADay().groupSize(4).parity(2).build();
        // 5 other nodes in the group; the failure escalates when at least 2 of them failed within the window
        double w = 3600;
        double q = -Math.expm1(-w / 86_400_000.0);
        double expected = 0;
        for (int j = 2; j <= 5; j++) {
            expected += binomial(5, j) * Math.pow(q, j) * Math.pow(1 - q, 5 - j);
        }
        assertThat(Planner.escalation(in, PlanLevel.RS, w)).isCloseTo(expected, offset(1e-15));
        assertThat(Planner.escalation(in, PlanLevel.XOR, w)).as("3 others, one is enough").isCloseTo(1 - Math.pow(1 - q, 3), offset(1e-12));
    }

    @Test
    void candidates_leaveNoWeighedFailureUnrecovered_andHoldNoIdleLevel() {
        Plan plan = Planner.plan(oneFailureADay().mtbfJob(Duration.ofDays(365)).build());
        assertThat(plan.candidates()).extracting(Candidate::name)
                .as("partner alone loses the run when both partners die; disk alone survives no node failure")
                .doesNotContain("partner", "disk", "xor", "rs")
                .contains("shared", "partner+shared", "partner+disk+shared");
        for (int i = 1; i < plan.candidates().size(); i++) {
            assertThat(plan.candidates().get(i).expected().wastePct()).isGreaterThanOrEqualTo(plan.candidates().get(i - 1).expected().wastePct());
        }
        // without job failures the disk recovers nothing: no candidate carries it
        assertThat(Planner.plan(oneFailureADay().build()).candidates()).extracting(Candidate::name).noneMatch(n -> n.contains("disk"));
    }

    @Test
    void assumedCosts_scaleWithTheStateAndForSharedLevelsWithTheRanks() {
        PlanInput in = PlanInput.builder().ranks(100).statePerRank(2_000_000_000L).mtbfNode(Duration.ofDays(365)).build();
        assertThat(in.costs().get(PlanLevel.PARTNER).checkpointSeconds()).as("2 GB at 1 GB/s").isCloseTo(2.0, offset(1e-9));
        assertThat(in.costs().get(PlanLevel.SHARED).checkpointSeconds()).as("100 x 2 GB at 100 GB/s").isCloseTo(2.0, offset(1e-9));
        assertThat(in.costs().get(PlanLevel.SHARED).source()).contains("assumed");
        assertThatThrownBy(() -> PlanInput.builder().ranks(1).statePerRank(1).mtbfNode(Duration.ofDays(1))
                .cost(PlanLevel.S3, new LevelCost(1, 1, "a")).cost(PlanLevel.S3, new LevelCost(2, 2, "b")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("s3");
        assertThatThrownBy(() -> PlanInput.builder().ranks(0)).hasMessageContaining("ranks");
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }
}
