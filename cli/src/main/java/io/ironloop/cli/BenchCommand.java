package io.ironloop.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code ironloop bench}: end-to-end benchmarks. With {@code --json} standard output holds exactly one
 * JSON object; a bench exits 0 whenever it measured, whether or not a target was met.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure Ironloop against references taken in the same run (see benchmarks/README.md).",
        subcommands = {BenchCheckpointCommand.class, BenchPreemptCommand.class, BenchOverheadCommand.class})
final class BenchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.err);
    }

    /** Prints figures as one JSON object or as aligned text lines. */
    static void print(Map<String, Object> figures, boolean json) throws Exception {
        if (json) {
            System.out.println(new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures));
        } else {
            figures.forEach((k, v) -> System.out.printf("%-28s %s%n", k, v instanceof Double d ? String.format("%.4f", d) : v));
        }
    }
}
