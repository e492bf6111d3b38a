package io.ironloop.cli;

import io.ironloop.benchmarks.MachineMemory;
import io.ironloop.benchmarks.recovery.RecoveryBench;
import io.ironloop.config.Units;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench recovery}. */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = {"In-memory protection and online recovery with N rank JVMs on loopback, SIZE bytes of state per rank:",
            "the partner copy (the partner level over the group's data connections) against raw TCP between the same JVMs,",
            "a block loop's snapshot blocking time against memcpy of the same bytes, the memory factor measured against the",
            "formula, and kill -9 of one rank: detection, shrink, restore, rebalance and kill to the next completed iteration,",
            "without and with a spare. About 4 minutes at -n 4 --size 256MiB."})
final class BenchRecoveryCommand implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "4", description = "Computing ranks (JVMs), at least 2; the spare jobs add one. Default ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = "--size", defaultValue = "256MiB", description = "State per rank, a multiple of 1 MiB (units: MiB, GiB). Default ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions of every figure after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        if (ranks < 2 || ranks > 16) {
            err.println("ironloop bench recovery: -n must be between 2 and 16, not " + ranks);
            return Main.USAGE;
        }
        if (!BenchCommand.enoughRepetitions("recovery", repetitions, err)) {
            return Main.USAGE;
        }
        RecoveryBench.Options o;
        try {
            o = RecoveryBench.Options.of(ranks, Units.parseSize(size), repetitions);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench recovery: bad --size: " + e.getMessage());
            return Main.USAGE;
        }
        long needed = RecoveryBench.memoryInUse(o);
        long available = MachineMemory.available();
        if (needed > available) {
            err.printf("ironloop bench recovery: %d ranks × %s need about %d MiB of memory, %d MiB are available%n", ranks, size,
                    needed >> 20, available >> 20);
            return Main.USAGE;
        }
        Map<String, Object> figures = RecoveryBench.run(o, err);
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return Main.OK;
    }
}
