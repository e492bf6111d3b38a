package io.ironloop.cli;

import io.ironloop.benchmarks.CheckpointBench;
import io.ironloop.config.Units;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ironloop bench checkpoint}. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        description = {"Checkpoint and restore SIZE bytes of double arrays against memcpy, a raw write + fsync and a raw read into"
            + " arrays of the same size, measured in the same run, warm and (as root, after dropping the page cache) cold.", "Uses the engine's default configuration; prints the medians of interleaved repetitions"
            + " and their ratios (keys in benchmarks/README.md)."})
final class BenchCheckpointCommand implements Callable<Integer> {
    @Option(names = "--size", defaultValue = "1GiB", description = "Bytes of protected state (units: KiB, MiB, GiB). Default ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--dir", description = "Directory for the checkpoint and the raw reference files (default: a new temporary directory).")
    Path dir;

    @Option(names = "--keep", description = "Leave the checkpoint in DIR (raw reference files are always deleted).")
    boolean keep;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        long bytes;
        try {
            bytes = Units.parseSize(size);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("ironloop bench checkpoint: bad --size: " + e.getMessage());
            return 2;
        }
        if (!BenchCommand.enoughRepetitions("checkpoint", repetitions, spec.commandLine().getErr())) {
            return Main.USAGE;
        }
        Path where = dir != null ? dir : Files.createTempDirectory("ironloop-bench");
        boolean temporary = dir == null;
        Map<String, Object> figures = CheckpointBench.run(bytes, where, repetitions, keep);
        if (temporary && !keep) {
            Files.deleteIfExists(where);
        } else if (keep) {
            spec.commandLine().getErr().println("checkpoint kept in " + where.resolve("checkpoint"));
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
