package io.ironloop.cli;

import io.ironloop.cli.bench.OverheadBench;
import io.ironloop.cli.bench.PreemptBench;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Parameters;

/** {@code ironloop bench overhead}. */
@Command(name = "overhead", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"DeLIA's overhead method (Table 2): the same application, same size, launcher and group layer,",
            "run without Ironloop's saves and triggers and with them (a global checkpoint every iteration, heartbeat",
            "trigger, signal trigger), interleaved, each run in a fresh FT_FOLDER, timed as whole jobs.",
            "overhead_pct = (median with - median without) / median without x 100; rsd_*_pct = sample SD / mean x 100."})
final class BenchOverheadCommand implements Callable<Integer> {
    @Option(names = "--app", defaultValue = "fwi", description = "Application: ${COMPLETION-CANDIDATES}. Default ${DEFAULT-VALUE}.")
    OverheadBench.App app;

    @Option(names = "-n", defaultValue = "4", description = "Ranks per job. Default ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = "--runs", defaultValue = "10", description = "Measured runs of each variant after one warm-up pair (>= 5). Default ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--dir", description = "Directory for the runs' checkpoint folders (default: a new temporary directory, removed afterwards).")
    Path dir;

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = "Option for every rank JVM (repeatable); replaces the default -Xmx256m -XX:+UseSerialGC.")
    List<String> jvmOptions = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Parameters(paramLabel = "ARGS", description = "The application's arguments (default: its demo size: 'demo' for fwi,"
            + " '2000000 20' for quickstart).")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        boolean temporary = dir == null;
        Path where = temporary ? Files.createTempDirectory("ironloop-bench-overhead") : Files.createDirectories(dir);
        Map<String, Object> figures;
        try {
            figures = OverheadBench.run(app, arguments, ranks, runs, where,
                    jvmOptions.isEmpty() ? OverheadBench.DEFAULT_RANK_JVM_OPTIONS : jvmOptions, err);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench overhead: " + e.getMessage());
            return 2;
        } finally {
            if (temporary) {
                PreemptBench.deleteTree(where);
            }
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
