package io.ironloop.cli.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

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

    /** The last {@code n} lines, each indented, for an error report. */
    String tail(int n) {
        String text;
        synchronized (stream) {
            stream.flush();
            text = bytes.toString(StandardCharsets.UTF_8);
        }
        List<String> lines = Arrays.asList(text.split("\n"));
        List<String> last = lines.subList(Math.max(0, lines.size() - n), lines.size());
        return "    " + String.join("\n    ", last);
    }
}
