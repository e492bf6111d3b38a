package io.ironloop.cli;

import io.ironloop.benchmarks.skeleton.SkeletonBench;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench skeleton}. */
@Command(name = "skeleton", mixinStandardHelpOptions = true,
        description = {"The 2-D heat example on the loop skeleton against its hand-written block version, in this JVM on one",
            "rank, 512 x 512 cells (--size demo): run time without checkpoints and with a checkpoint to disk after every step, the",
            "checkpoint's size with the input domain unregistered over with it, and both versions' logical lines of code. Overheads are",
            "the median of per-pair ratios of alternating pairs, each side running at least --pair-seconds."})
final class BenchSkeletonCommand implements Callable<Integer> {
    @Option(names = "--steps", defaultValue = "200", description = "Jacobi steps per run (>= 1). Default ${DEFAULT-VALUE}.")
    long steps;

    @Option(names = "--size", defaultValue = "demo", description = "Problem size: demo (512 x 512 cells) or test (64 x 64). Default ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured pairs per comparison after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--pair-seconds", defaultValue = "3", description = {"Least seconds each side of a pair runs its version back to back",
        "(0: one run). Default ${DEFAULT-VALUE}."})
    double pairSeconds;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        if (steps < 1) {
            err.println("ironloop bench skeleton: --steps must be at least 1, not " + steps);
            return Main.USAGE;
        }
        if (!size.equals("demo") && !size.equals("test")) {
            err.println("ironloop bench skeleton: --size must be demo or test, not '" + size + "'");
            return Main.USAGE;
        }
        if (!(pairSeconds >= 0 && pairSeconds <= 600)) {
            err.println("ironloop bench skeleton: --pair-seconds must be from 0 to 600, not " + pairSeconds);
            return Main.USAGE;
        }
        if (!BenchCommand.enoughRepetitions("skeleton", repetitions, spec.commandLine().getErr())) {
            return Main.USAGE;
        }
        Path root;
        try {
            root = SkeletonBench.sourceRoot();
        } catch (IllegalStateException e) {
            err.println("ironloop bench skeleton: " + e.getMessage());
            return 1;
        }
        Map<String, Object> figures = BenchCommand.measureIn(null, "skeleton",
                dir -> SkeletonBench.run(size.equals("test"), steps, repetitions, pairSeconds, dir, root, err));
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
