package io.ironloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironloop.config.Units;
import io.ironloop.core.plan.FailureSimulation;
import io.ironloop.core.plan.LevelCost;
import io.ironloop.core.plan.Plan;
import io.ironloop.core.plan.PlanInput;
import io.ironloop.core.plan.PlanLevel;
import io.ironloop.core.plan.Planner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop plan}: recommends levels and intervals for a job (the model: {@link Planner}). */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Recommend storage levels and their checkpoint intervals for a job.",
            "For every chain of levels that recovers every failure weighed: the Young/Daly interval of each level and the",
            "expected overhead, lost work and restore time per day, by formula and by a seeded Monte-Carlo simulation of",
            "failures over a long virtual run. Levels: partner, xor, rs (in memory), disk (local), shared (file system), s3.",
            "How to read it: docs/planning.md."})
final class PlanCommand implements Callable<Integer> {
    @Option(names = "--ranks", required = true, description = "Processes of the job.")
    long ranks;

    @Option(names = "--state-per-rank", required = true, description = "Protected state per rank (units: KiB, MiB, GiB, GB, ...).")
    String statePerRank;

    @Option(names = "--mtbf-node", required = true, description = "Mean time between failures of one node (units: s, m, h, d, y of 365 days).")
    String mtbfNode;

    @Option(names = "--mtbf-rack", description = "Mean time between failures of one rack (default: rack failures not weighed).")
    String mtbfRack;

    @Option(names = "--mtbf-job", description = "Mean time between failures that kill the whole job at once (default: not weighed).")
    String mtbfJob;

    @Option(names = "--ranks-per-node", defaultValue = "1", description = "Processes per node. Default ${DEFAULT-VALUE}.")
    int ranksPerNode;

    @Option(names = "--nodes-per-rack", defaultValue = "32", description = "Nodes per rack. Default ${DEFAULT-VALUE}.")
    int nodesPerRack;

    @Option(names = "--group-size", defaultValue = "8", description = "Nodes per XOR group and data nodes per Reed-Solomon group. Default ${DEFAULT-VALUE}.")
    int groupSize;

    @Option(names = "--parity", defaultValue = "2", description = "Reed-Solomon parity nodes per group. Default ${DEFAULT-VALUE}.")
    int parity;

    @Option(names = "--cost", paramLabel = "LEVEL=DURATION", description = "Measured time of one save of the whole job on LEVEL (repeatable), e.g. --cost shared=90s.")
    Map<String, String> costs = new LinkedHashMap<>();

    @Option(names = "--recover", paramLabel = "LEVEL=DURATION", description = "Measured time of one restore from LEVEL (repeatable; default: as long as a save).")
    Map<String, String> recovers = new LinkedHashMap<>();

    @Option(names = {"--bandwidths", "--bench"}, paramLabel = "FILE", description = {"JSON of 'bin/ironloop bench levels --json': LEVEL_checkpoint_gbps",
        "(one node's, shared by its ranks; the whole job's for shared and s3) and LEVEL_recover_s give the levels' costs (--cost wins)."})
    Path bench;

    @Option(names = "--days", defaultValue = "30", description = "Virtual days the simulation runs. Default ${DEFAULT-VALUE}.")
    double days;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the simulation's failures. Default ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--json", description = "Print one JSON object: the recommendation's keys, then every candidate under 'candidates'.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PlanInput input;
        try {
            input = input();
        } catch (IllegalArgumentException | IllegalStateException e) {
            spec.commandLine().getErr().println("ironloop plan: " + e.getMessage());
            return Main.USAGE;
        }
        Plan plan = Planner.plan(input);
        List<FailureSimulation.Simulated> simulated;
        try {
            simulated = FailureSimulation.simulate(input, plan.candidates(), days, seed);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("ironloop plan: " + e.getMessage());
            return Main.USAGE;
        }
        PlanReport report = new PlanReport(plan, simulated, days, seed);
        if (json) {
            spec.commandLine().getOut().println(Json.pretty(report.json()));
        } else {
            report.print(spec.commandLine().getOut());
        }
        return Main.OK;
    }

    private PlanInput input() throws IOException {
        long state = Units.parseSize(statePerRank);
        PlanInput.Builder b = PlanInput.builder().ranks(ranks).ranksPerNode(ranksPerNode).nodesPerRack(nodesPerRack).statePerRank(state)
                .mtbfNode(duration("--mtbf-node", mtbfNode)).groupSize(groupSize).parity(parity);
        if (mtbfRack != null) {
            b.mtbfRack(duration("--mtbf-rack", mtbfRack));
        }
        if (mtbfJob != null) {
            b.mtbfJob(duration("--mtbf-job", mtbfJob));
        }
        Map<PlanLevel, LevelCost> given = new EnumMap<>(PlanLevel.class);
        Map<PlanLevel, Double> recover = new EnumMap<>(PlanLevel.class);
        recovers.forEach((level, d) -> recover.put(PlanLevel.of(level), seconds("--recover " + level, d)));
        costs.forEach((level, d) -> {
            double c = seconds("--cost " + level, d);
            PlanLevel l = PlanLevel.of(level);
            given.put(l, new LevelCost(c, recover.getOrDefault(l, c), "given"));
        });
        if (bench != null) {
            fromBench(Json.MAPPER.readTree(Files.readString(bench)), state, given, recover);
        }
        for (PlanLevel l : recover.keySet()) {
            if (!given.containsKey(l)) {
                throw new IllegalArgumentException("--recover " + l.label() + " needs the save's cost too (--cost " + l.label() + "=... or --bench)");
            }
        }
        given.forEach(b::cost);
        return b.build();
    }

    /**
     * The costs of the levels {@code --bench} measured and no {@code --cost} gave. The bench ran its ranks on one
     * machine: its {@code LEVEL_checkpoint_gbps} is what one node does, shared by that node's ranks
     * ({@code --ranks-per-node}); for {@code shared} and {@code s3} it is the whole job's bandwidth. A restore from
     * the node's own levels takes {@code LEVEL_recover_s} scaled from the bench's {@code size_bytes} to this state.
     */
    private void fromBench(JsonNode root, long state, Map<PlanLevel, LevelCost> given, Map<PlanLevel, Double> recover) {
        JsonNode benchSize = root.path("size_bytes");
        for (PlanLevel l : PlanLevel.values()) {
            JsonNode gbps = root.path(l.label() + "_checkpoint_gbps");
            if (!gbps.isNumber() || !(gbps.asDouble() > 0) || given.containsKey(l)) {
                continue;
            }
            double perRank = l.sharedBandwidth() ? gbps.asDouble() : gbps.asDouble() / ranksPerNode;
            LevelCost c = LevelCost.fromBandwidth(l, ranks, state, perRank * 1e9,
                    String.format("%s: %.3g GB/s%s", bench.getFileName(), gbps.asDouble(), l.sharedBandwidth() ? "" : " per node"));
            double restore = c.recoverSeconds();
            JsonNode measured = root.path(l.label() + "_recover_s");
            if (!l.sharedBandwidth() && measured.isNumber() && measured.asDouble() > 0 && benchSize.isNumber() && benchSize.asDouble() > 0) {
                restore = measured.asDouble() * state / benchSize.asDouble();
            }
            given.put(l, new LevelCost(c.checkpointSeconds(), recover.getOrDefault(l, restore), c.source()));
        }
    }

    private static Duration duration(String option, String text) {
        try {
            return Units.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad " + option + ": " + e.getMessage(), e);
        }
    }

    private static double seconds(String option, String text) {
        return duration(option, text).toNanos() / 1e9;
    }
}
