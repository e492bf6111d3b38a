package io.ironloop.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.config.Units;
import io.ironloop.core.plan.Candidate;
import io.ironloop.core.plan.FailureSimulation;
import io.ironloop.core.plan.LevelPlan;
import io.ironloop.core.plan.Outcome;
import io.ironloop.core.plan.Plan;
import io.ironloop.core.plan.PlanInput;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** What {@code ironloop plan} prints: the recommendation and every candidate, as text or as one JSON object. */
final class PlanReport {
    private final Plan plan;
    private final List<FailureSimulation.Simulated> simulated;
    private final double days;
    private final long seed;

    PlanReport(Plan plan, List<FailureSimulation.Simulated> simulated, double days, long seed) {
        this.plan = plan;
        this.simulated = simulated;
        this.days = days;
        this.seed = seed;
    }

    /** The recommendation's keys at the top level, the input's figures, and every candidate under {@code candidates}. */
    ObjectNode json() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        PlanInput in = plan.input();
        root.put("recommended", plan.recommended().name());
        candidate(root, plan.recommended(), simulated.get(0));
        root.put("ranks", in.ranks());
        root.put("nodes", in.nodes());
        root.put("racks", in.racks());
        root.put("state_per_rank_bytes", in.statePerRank());
        root.put("mtbf_node_s", seconds(in.mtbfNode()));
        in.mtbfRack().ifPresent(m -> root.put("mtbf_rack_s", seconds(m)));
        in.mtbfJob().ifPresent(m -> root.put("mtbf_job_s", seconds(m)));
        root.put("simulation_days", days);
        root.put("simulation_seed", seed);
        ArrayNode all = root.putArray("candidates");
        for (int i = 0; i < plan.candidates().size(); i++) {
            ObjectNode c = all.addObject();
            c.put("name", plan.candidates().get(i).name());
            candidate(c, plan.candidates().get(i), simulated.get(i));
        }
        return root;
    }

    private static void candidate(ObjectNode node, Candidate c, FailureSimulation.Simulated s) {
        ArrayNode levels = node.putArray("levels");
        for (LevelPlan l : c.levels()) {
            ObjectNode o = levels.addObject();
            o.put("level", l.level().label());
            o.put("interval_s", l.intervalSeconds());
            o.put("cost_s", l.costSeconds());
            o.put("recover_s", l.recoverSeconds());
            o.put("cost_source", l.costSource());
            o.put("recovers_failures_per_day", l.failuresPerSecond() * Outcome.DAY);
            o.put("mtbf_s", l.mtbfSeconds());
            o.put("keeps_up", l.keepsUp());
        }
        node.put("node_failures_past_memory", c.escalation());
        outcome(node, "expected_", c.expected());
        outcome(node, "simulated_", s.outcome());
        if (!Double.isNaN(s.lostWorkStderr())) {
            node.put("simulated_lost_work_s_per_day_stderr", s.lostWorkStderr());
        }
        node.put("simulated_failures", s.failures());
    }

    private static void outcome(ObjectNode node, String prefix, Outcome o) {
        node.put(prefix + "overhead_pct", o.overheadPct());
        node.put(prefix + "lost_work_s_per_day", o.lostWorkSecondsPerDay());
        node.put(prefix + "recovery_s_per_day", o.recoverySecondsPerDay());
        node.put(prefix + "failures_per_day", o.failuresPerDay());
        node.put(prefix + "probability_of_losing_work_per_day", o.probabilityOfLosingWorkPerDay());
        node.put(prefix + "waste_pct", o.wastePct());
    }

    /** The recommendation in words, the candidates as a table, and where each level's cost came from. */
    void print(PrintWriter out) {
        PlanInput in = plan.input();
        out.printf(Locale.ROOT, "plan for %d ranks on %d nodes in %d racks, %s of state per rank; MTBF of a node %s%s%s%n", in.ranks(),
                in.nodes(), in.racks(), Units.formatSize(in.statePerRank()), human(seconds(in.mtbfNode())),
                in.mtbfRack().map(m -> ", of a rack " + human(seconds(m))).orElse(""),
                in.mtbfJob().map(m -> ", of the whole job " + human(seconds(m))).orElse(""));
        Candidate best = plan.recommended();
        FailureSimulation.Simulated bestSim = simulated.get(0);
        out.printf(Locale.ROOT, "recommended: %s — %s%n", best.name(), best.levels().stream()
                .map(l -> "save to " + l.level().label() + " every " + human(l.intervalSeconds())).collect(Collectors.joining(", ")));
        out.printf(Locale.ROOT, "  expected:  %s%n", words(best.expected(), Double.NaN));
        out.printf(Locale.ROOT, "  simulated: %s (%s virtual days, seed %d, %d failures)%n", words(bestSim.outcome(), bestSim.lostWorkStderr()),
                fmt(days), seed, bestSim.failures());
        for (LevelPlan l : best.levels()) {
            if (!l.keepsUp()) {
                out.printf(Locale.ROOT, "  warning: a save to %s (%s) takes longer than its interval: the level cannot keep up; give it "
                        + "fewer failures to recover or make it cheaper%n", l.level().label(), human(l.costSeconds()));
            }
        }
        out.println();
        TextTable table = new TextTable("candidate", "intervals", "overhead %", "lost s/day", "restore s/day", "waste %", "sim overhead %",
                "sim lost s/day", "sim waste %");
        for (int i = 0; i < plan.candidates().size(); i++) {
            Candidate c = plan.candidates().get(i);
            Outcome e = c.expected();
            Outcome s = simulated.get(i).outcome();
            boolean keepsUp = c.levels().stream().allMatch(LevelPlan::keepsUp);
            table.row(c.name() + (keepsUp ? "" : " *"), c.levels().stream().map(l -> human(l.intervalSeconds())).collect(Collectors.joining(" / ")), fmt(e.overheadPct()),
                    fmt(e.lostWorkSecondsPerDay()), fmt(e.recoverySecondsPerDay()), fmt(e.wastePct()), fmt(s.overheadPct()),
                    fmt(s.lostWorkSecondsPerDay()), fmt(s.wastePct()));
        }
        table.print(out);
        if (plan.candidates().stream().anyMatch(c -> !c.levels().stream().allMatch(LevelPlan::keepsUp))) {
            out.println("* a level of this chain takes longer to save than its interval: it cannot keep up and its figures do not hold");
        }
        out.println();
        out.println("costs of one save of the whole job (restore):");
        plan.input().costs().forEach((level, c) -> out.printf(Locale.ROOT, "  %-8s %s (%s), %s%n", level.label(), human(c.checkpointSeconds()),
                human(c.recoverSeconds()), c.source()));
    }

    private static String words(Outcome o, double lostStderr) {
        return String.format(Locale.ROOT, "overhead %s %%, lost work %s%s s/day, restore %s s/day, %s failures/day, P(a day loses work) %s, "
                + "waste %s %%", fmt(o.overheadPct()), fmt(o.lostWorkSecondsPerDay()), Double.isNaN(lostStderr) ? "" : " ± " + fmt(lostStderr),
                fmt(o.recoverySecondsPerDay()), fmt(o.failuresPerDay()), fmt(o.probabilityOfLosingWorkPerDay()), fmt(o.wastePct()));
    }

    /** Three significant digits, plain. */
    private static String fmt(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return String.valueOf(v == 0 ? 0 : v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Seconds in the largest fitting unit: {@code 42 s}, {@code 9.8 min}, {@code 3.1 h}, {@code 2.4 d}, {@code 5 y}. */
    static String human(double seconds) {
        if (seconds < 60) {
            return fmt(seconds) + " s";
        }
        if (seconds < 3600) {
            return fmt(seconds / 60) + " min";
        }
        if (seconds < Outcome.DAY) {
            return fmt(seconds / 3600) + " h";
        }
        if (seconds < 365 * Outcome.DAY) {
            return fmt(seconds / Outcome.DAY) + " d";
        }
        return fmt(seconds / (365 * Outcome.DAY)) + " y";
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
