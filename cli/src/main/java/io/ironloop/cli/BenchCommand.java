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
        subcommands = {BenchCheckpointCommand.class, BenchGroupCommand.class})
final class BenchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.err);
    }

    private static String format(Object v) {
        if (v instanceof Double d) {
            return String.format("%.4f", d);
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder();
            m.forEach((k, x) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(": ").append(format(x)));
            return b.toString();
        }
        return String.valueOf(v);
    }

    /** Prints figures as one JSON object or as aligned text lines. */
    static void print(Map<String, Object> figures, boolean json, java.io.PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures));
        } else {
            figures.forEach((k, v) -> out.printf("%-30s %s%n", k, format(v)));
        }
        out.flush();
    }
}
