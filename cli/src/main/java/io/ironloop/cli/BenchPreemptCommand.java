package io.ironloop.cli;

import io.ironloop.benchmarks.runtime.PreemptBench;
import io.ironloop.cli.view.ProgressBar;
import io.ironloop.config.Units;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench preempt}. */
@Command(name = "preempt", mixinStandardHelpOptions = true,
        description = {"One rank JVM holds SIZE bytes of published local state with TRIGGER_SIGNAL true; the bench sends it",
            "SIGTERM and times how long until the commit record is on disk, against a raw write + fsync of SIZE bytes",
            "to the same directory, measured in the same run. The rank needs about 3 x SIZE of memory."})
final class BenchPreemptCommand implements Callable<Integer> {
    @Option(names = "--size", defaultValue = "1GiB", description = "Bytes of published local state (units: KiB, MiB, GiB). Default ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--dir", description = "Directory for the checkpoint folders and the raw reference files (default: a new temporary directory, removed afterwards).")
    Path dir;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        long bytes;
        try {
            bytes = Units.parseSize(size);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench preempt: bad --size: " + e.getMessage());
            return 2;
        }
        if (!BenchCommand.enoughRepetitions("preempt", repetitions, spec.commandLine().getErr())) {
            return Main.USAGE;
        }
        Map<String, Object> figures;
        try {
            figures = BenchCommand.measureIn(dir, "preempt", where -> {
                try (ProgressBar bar = ProgressBar.start("bench preempt", PreemptBench.steps(repetitions))) {
                    return PreemptBench.run(bytes, where, repetitions, bar.lines(err), bar::step);
                }
            });
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench preempt: " + e.getMessage());
            return 2;
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
