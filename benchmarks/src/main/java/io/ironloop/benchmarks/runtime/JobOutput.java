package io.ironloop.benchmarks.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a bench's job printed (the launcher's messages and the ranks' prefixed output), kept in memory so that
 * a bench's standard error stays readable; shown when the job did not do what the bench needed. Thread-safe.
 */
final class JobOutput {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    /** The stream to give the launcher as its standard output and standard error. */
    PrintStream stream() {
        return stream;
    }

    /** Everything printed so far. */
    String text() {
        synchronized (stream) {
            stream.flush();
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * Keeps the whole output in a new file in the system's temporary directory, for a failure report.
     *
     * @return the file, or empty when it could not be written
     */
    Optional<Path> save(String name) {
        try {
            Path file = Files.createTempFile(name + "-", ".log");
            Files.writeString(file, text());
            return Optional.of(file);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The end of a failure message: where the whole output was kept and its last lines.
     *
     * @param name the start of the log file's name
     */
    String report(String name) {
        return save(name).map(f -> "; the job's whole output is in " + f).orElse("") + "; its last lines:\n" + tail(20);
    }

    /** The last {@code n} lines, each indented, for an error report. */
    String tail(int n) {
        String text = text();
        List<String> lines = Arrays.asList(text.split("\n"));
        List<String> last = lines.subList(Math.max(0, lines.size() - n), lines.size());
        return "    " + String.join("\n    ", last);
    }
}
