package io.ironloop.cli;

import io.ironloop.benchmarks.runtime.OverheadBench;
import io.ironloop.cli.view.ProgressBar;
import java.io.PrintStream;
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

    @Option(names = "--cells", paramLabel = "N", description = {"--app heat only: cells along each block's edge (8 x 8 blocks),",
        "instead of the bench size's 1024 (iterations of about 100 ms or more per rank with 4 ranks on 2 cores)."})
    Integer cells;

    @Option(names = "--dir", description = "Directory for the runs' checkpoint folders (default: a new temporary directory, removed afterwards).")
    Path dir;

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = {"Option for every rank JVM (repeatable); replaces the default -Xmx256m -XX:+UseSerialGC",
                "(heat: -Xmx2g -XX:MaxDirectMemorySize=1g -XX:+UseSerialGC)."})
    List<String> jvmOptions = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Parameters(paramLabel = "ARGS", description = "The application's arguments (default: its bench size: 'demo' for fwi,"
            + " '1000000 20' for quickstart, 'bench' for heat).")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        List<String> args = new ArrayList<>(arguments.isEmpty() ? app.arguments() : arguments);
        if (cells != null) {
            if (app != OverheadBench.App.HEAT) {
                err.println("ironloop bench overhead: --cells applies to --app heat only");
                return 2;
            }
            args.addAll(List.of("--cells", Integer.toString(cells)));
        }
        Map<String, Object> figures;
        try {
            figures = BenchCommand.measureIn(dir, "overhead", where -> {
                try (ProgressBar bar = ProgressBar.start("bench overhead", OverheadBench.steps(runs))) {
                    return OverheadBench.run(app, args, ranks, runs, where, jvmOptions.isEmpty() ? app.defaultJvmOptions() : jvmOptions,
                            bar.lines(err), bar::step);
                }
            });
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench overhead: " + e.getMessage());
            return 2;
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
