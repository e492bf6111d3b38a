package io.ironloop.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ironloop.Folders;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code ironloop bench}: end-to-end benchmarks. With {@code --json} standard output holds exactly one
 * JSON object; a bench exits 0 whenever it measured, whether or not a target was met.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure Ironloop against references taken in the same run (see benchmarks/README.md).",
        subcommands = {BenchCheckpointCommand.class, BenchPreemptCommand.class, BenchOverheadCommand.class, BenchGroupCommand.class,
            BenchRecoveryCommand.class, BenchDevicesCommand.class, BenchSkeletonCommand.class, BenchSitesCommand.class,
            BenchLevelsCommand.class})
final class BenchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.err);
    }

    private static String format(Object v) {
        if (v instanceof Double d) {
            return String.format(Locale.ROOT, "%.4f", d);
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder();
            m.forEach((k, x) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(": ").append(format(x)));
            return b.toString();
        }
        return String.valueOf(v);
    }

    /** Each figure is a median of at least this many repetitions (DESIGN.md's bench contract). */
    static final int MIN_REPETITIONS = 5;

    /**
     * Whether {@code repetitions} is enough for a median; if not, says so on {@code err} in one line (the
     * caller exits {@link Main#USAGE}).
     */
    static boolean enoughRepetitions(String command, int repetitions, PrintWriter err) {
        if (repetitions >= MIN_REPETITIONS) {
            return true;
        }
        err.println("ironloop bench " + command + ": --repetitions must be at least " + MIN_REPETITIONS
                + " (each figure is a median), not " + repetitions);
        return false;
    }

    /**
     * A bench's measurement in its folder.
     */
    interface Measurement {
        /** Measures, with {@code folder} for its files. */
        Map<String, Object> in(Path folder) throws Exception;
    }

    /**
     * Measures in {@code dir} (created when missing) or, without one, in a new temporary directory named after
     * {@code bench}, removed afterwards whatever happens: the one rule of the benches' scratch folders.
     */
    static Map<String, Object> measureIn(Path dir, String bench, Measurement measurement) throws Exception {
        boolean temporary = dir == null;
        Path where = temporary ? Files.createTempDirectory("ironloop-bench-" + bench) : Files.createDirectories(dir);
        try {
            return measurement.in(where);
        } finally {
            if (temporary) {
                Folders.deleteTree(where);
            }
        }
    }

    /** Prints figures to standard output as one JSON object or as aligned text lines. */
    static void print(Map<String, Object> figures, boolean json) throws Exception {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        print(figures, json, out);
    }

    /** Prints figures to {@code out} as one JSON object or as aligned text lines, and flushes it. */
    static void print(Map<String, Object> figures, boolean json, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures));
        } else {
            figures.forEach((k, v) -> out.printf(Locale.ROOT, "%-30s %s%n", k, format(v)));
        }
        out.flush();
    }
}
