package io.ironloop.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The simulation agrees with the formulas. Stated tolerance: over 30 virtual days, failures per day within 4
 * Poisson standard errors and lost work per day within 4 of the simulation's standard errors (rare whole-job
 * failures make a month's figure noisy); over 10 virtual years, lost work and restore time per day within 10 %;
 * overhead within one save of each level over the horizon (the simulation counts whole saves).
 */
class FailureSimulationTest {
    /** 10^5 ranks, 4 per node, node MTBF 3 years, rack MTBF 10 years, a whole-job failure every 60 days. */
    private static PlanInput large() {
        return PlanInput.builder().ranks(100_000).ranksPerNode(4).statePerRank(1L << 30).mtbfNode(Duration.ofDays(3 * 365))
                .mtbfRack(Duration.ofDays(10 * 365)).mtbfJob(Duration.ofDays(60)).build();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void simulation_agreesWithTheFormula_forEveryCandidate(long seed) {
        Plan plan = Planner.plan(large());
        List<FailureSimulation.Simulated> sim = FailureSimulation.simulate(plan.input(), plan.candidates(), 30, seed);
        for (int i = 0; i < sim.size(); i++) {
            Candidate c = plan.candidates().get(i);
            Outcome f = c.expected();
            FailureSimulation.Simulated s = sim.get(i);
            String what = c.name() + " seed " + seed + ": formula " + f + ", simulated " + s;
            double poisson = Math.sqrt(f.failuresPerDay() * 30) / 30;
            assertThat(s.outcome().failuresPerDay()).as(what).isCloseTo(f.failuresPerDay(), org.assertj.core.data.Offset.offset(4 * poisson));
            assertThat(Math.abs(s.outcome().lostWorkSecondsPerDay() - f.lostWorkSecondsPerDay())).as(what)
                    .isLessThanOrEqualTo(4 * s.lostWorkStderr());
            assertThat(s.outcome().overheadPct()).as(what).isCloseTo(f.overheadPct(), org.assertj.core.data.Offset.offset(oneSaveEach(c, 30)));
        }
    }

    @Test
    void simulation_overTenYears_agreesWithTheFormulaWithinTenPercent() {
        Plan plan = Planner.plan(large());
        List<FailureSimulation.Simulated> sim = FailureSimulation.simulate(plan.input(), plan.candidates(), 3650, 42);
        for (int i = 0; i < sim.size(); i++) {
            Outcome f = plan.candidates().get(i).expected();
            Outcome s = sim.get(i).outcome();
            String what = plan.candidates().get(i).name() + ": formula " + f + ", simulated " + s;
            assertThat(s.lostWorkSecondsPerDay()).as(what).isCloseTo(f.lostWorkSecondsPerDay(), org.assertj.core.data.Percentage.withPercentage(10));
            assertThat(s.recoverySecondsPerDay()).as(what).isCloseTo(f.recoverySecondsPerDay(), org.assertj.core.data.Percentage.withPercentage(10));
            assertThat(s.overheadPct()).as(what).isCloseTo(f.overheadPct(), org.assertj.core.data.Offset.offset(oneSaveEach(plan.candidates().get(i), 3650)));
        }
    }

    /** One save of every level of {@code c}, in percent of {@code days}. */
    private static double oneSaveEach(Candidate c, double days) {
        return 100 * c.levels().stream().mapToDouble(LevelPlan::costSeconds).sum() / (days * Outcome.DAY);
    }

    @Test
    void sameSeed_sameFigures_otherSeed_otherTrace() {
        Plan plan = Planner.plan(large());
        List<Candidate> best = List.of(plan.recommended());
        assertThat(FailureSimulation.simulate(plan.input(), best, 30, 7)).isEqualTo(FailureSimulation.simulate(plan.input(), best, 30, 7));
        assertThat(FailureSimulation.simulate(plan.input(), best, 30, 8)).isNotEqualTo(FailureSimulation.simulate(plan.input(), best, 30, 7));
    }

    @Test
    void inMemoryGroups_escalateWhenTwoMembersFailWithinTheWindow() {
        // 64 nodes failing every 2 hours each, pairs re-protected only every interval: double failures are common
        PlanInput in = PlanInput.builder().ranks(64).statePerRank(1L << 30).mtbfNode(Duration.ofHours(2))
                .cost(PlanLevel.PARTNER, new LevelCost(60, 30, "given")).cost(PlanLevel.SHARED, new LevelCost(120, 60, "given")).build();
        Candidate c = Planner.evaluate(in, List.of(PlanLevel.PARTNER, PlanLevel.SHARED)).orElseThrow();
        assertThat(c.escalation()).as("a window of about 2.5 min of a 2 h MTBF").isBetween(0.01, 0.05);
        FailureSimulation.Simulated s = FailureSimulation.simulate(in, List.of(c), 30, 11).get(0);
        double sharedShareSimulated = s.outcome().recoverySecondsPerDay(); // 30 s per partner restore, 60 s per shared one
        double escalatedSimulated = (sharedShareSimulated / s.outcome().failuresPerDay() - 30) / 30;
        assertThat(escalatedSimulated).as("share of failures the shared level recovered").isCloseTo(c.escalation(),
                org.assertj.core.data.Offset.offset(0.005));
    }

    @Test
    void tenToTheFiveRanksForThirtyDays_inWellUnderASecond() {
        Plan plan = Planner.plan(large());
        long start = System.nanoTime();
        FailureSimulation.simulate(plan.input(), plan.candidates(), 30, 1);
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(2.0);
        assertThatThrownBy(() -> FailureSimulation.simulate(plan.input(), plan.candidates(), 1e9, 1))
                .hasMessageContaining("failures");
    }
}
