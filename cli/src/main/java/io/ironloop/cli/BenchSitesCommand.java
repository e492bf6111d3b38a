package io.ironloop.cli;

import io.ironloop.Folders;
import io.ironloop.benchmarks.sites.SitesBench;
import io.ironloop.config.Units;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench sites}. */
@Command(name = "sites", mixinStandardHelpOptions = true,
        description = {"Site protection (H-RADIC) on loopback in this JVM: a committed line copied to the neighbour site's protector",
            "against raw TCP over the same link, into memory and durable (written, fsynced and renamed before the ack); the time from the loss of a site to its declaration (confirmed by a third site)",
            "and to its recovery on a spare site; declarations of sites that were not lost (false positives); the time until a cut link between two",
            "protectors is reported (nothing declared); the overhead of site protection on the heat block example (its protectors in JVMs of",
            "their own) against none, in alternating pairs, with the 95 % confidence interval of the median."})
final class BenchSitesCommand implements Callable<Integer> {
    @Option(names = "--line-size", defaultValue = "64MiB", description = "State in the replicated line. Default ${DEFAULT-VALUE}.")
    String lineSize;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--app-size", paramLabel = "test|demo", defaultValue = "demo",
            description = "Size of the heat block example of the overhead runs (test: 64 x 64 cells, demo: 512 x 512). Default ${DEFAULT-VALUE}.")
    String appSize;

    @Option(names = "--steps", defaultValue = "2000", description = "Steps of an overhead run. Default ${DEFAULT-VALUE}.")
    long steps;

    @Option(names = "--every", defaultValue = "500", description = "Steps between two disk lines (shipped to the neighbour site when protected). Default ${DEFAULT-VALUE}.")
    long every;

    @Option(names = "--pairs", defaultValue = "20",
            description = "Alternating pairs of the overhead runs (>= 6 for a 95 % confidence interval of the median). Default ${DEFAULT-VALUE}.")
    int pairs;

    @Option(names = "--pair-seconds", paramLabel = "S", defaultValue = "0",
            description = "Least seconds each side of an overhead pair runs back to back (0: one run). Default ${DEFAULT-VALUE}.")
    double pairSeconds;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        long bytes;
        try {
            bytes = Units.parseSize(lineSize);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench sites: --line-size: " + e.getMessage());
            return Main.USAGE;
        }
        if (bytes < 8) {
            err.println("ironloop bench sites: --line-size must be at least 8 bytes, not " + lineSize);
            return Main.USAGE;
        }
        if (!BenchCommand.enoughRepetitions("sites", repetitions, spec.commandLine().getErr())) {
            return Main.USAGE;
        }
        SitesBench.Overhead overhead;
        try {
            HeatBlocksConfig app = switch (appSize) {
                case "test" -> HeatBlocksConfig.test();
                case "demo" -> HeatBlocksConfig.demo();
                default -> throw new IllegalArgumentException("--app-size is test or demo, not " + appSize);
            };
            overhead = new SitesBench.Overhead(app.toBuilder().steps(steps).build(), every, pairs, pairSeconds);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench sites: " + e.getMessage());
            return Main.USAGE;
        }
        Path dir = Files.createTempDirectory("ironloop-bench-sites");
        Map<String, Object> figures;
        try {
            figures = SitesBench.run(bytes, repetitions, overhead, dir, err);
        } finally {
            Folders.deleteTree(dir);
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
