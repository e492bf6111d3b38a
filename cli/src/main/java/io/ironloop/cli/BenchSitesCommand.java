package io.ironloop.cli;

import io.ironloop.Folders;
import io.ironloop.benchmarks.sites.SitesBench;
import io.ironloop.config.Units;
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
            "and to its recovery on a spare site; declarations of sites that were not lost (false positives)."})
final class BenchSitesCommand implements Callable<Integer> {
    @Option(names = "--line-size", defaultValue = "64MiB", description = "State in the replicated line. Default ${DEFAULT-VALUE}.")
    String lineSize;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

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
        Path dir = Files.createTempDirectory("ironloop-bench-sites");
        Map<String, Object> figures;
        try {
            figures = SitesBench.run(bytes, repetitions, dir, err);
        } finally {
            Folders.deleteTree(dir);
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
