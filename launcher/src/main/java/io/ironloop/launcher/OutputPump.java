package io.ironloop.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * Forwards one of a rank's output streams line by line to the launcher's corresponding stream: standard
 * output as it is (it carries the application's results, so the launcher's standard output is what the
 * application prints, as under {@code mpirun}), standard error prefixed with {@code [rank] } (logs and
 * progress, where the rank matters). Each line is printed with one {@code println}, so lines of different
 * ranks never mix, and made {@linkplain #printable printable} first, so raw bytes a rank prints (a thread
 * name in a log line, a stray binary write) never make the launcher's output binary. Runs on its own daemon
 * thread until the rank closes the stream.
 */
final class OutputPump implements Runnable {
    private final InputStream in;
    private final PrintStream target;
    private final int attempt;
    private final int rank;
    private final boolean stderr;
    private final RankOutputListener listener;
    private final LauncherLog log;

    private OutputPump(InputStream in, PrintStream target, int attempt, int rank, boolean stderr,
            RankOutputListener listener, LauncherLog log) {
        this.in = in;
        this.target = target;
        this.attempt = attempt;
        this.rank = rank;
        this.stderr = stderr;
        this.listener = listener;
        this.log = log;
    }

    /** Starts forwarding on a new daemon thread and returns that thread. */
    static Thread start(InputStream in, PrintStream target, int attempt, int rank, boolean stderr,
            RankOutputListener listener, LauncherLog log) {
        Thread t = new Thread(new OutputPump(in, target, attempt, rank, stderr, listener, log),
                "ironloop-rank-" + rank + (stderr ? "-err" : "-out"));
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void run() {
        String prefix = stderr ? "[" + rank + "] " : "";
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()))) {
            String line;
            while ((line = reader.readLine()) != null) {
                line = printable(line);
                target.println(prefix + line);
                try {
                    listener.line(attempt, rank, stderr, line);
                } catch (RuntimeException e) {
                    log.warn("output listener failed: " + e);
                }
            }
        } catch (IOException e) {
            log.warn("lost the " + (stderr ? "standard error" : "standard output") + " of rank " + rank + ": "
                    + e.getMessage());
        } finally {
            target.flush();
        }
    }

    /**
     * The line with every control character other than tab (C0, DEL, C1, and the line and paragraph
     * separators) written as {@code \\uXXXX}, and every undecodable byte as U+FFFD, so {@code grep} and
     * terminals see text.
     */
    static String printable(String line) {
        StringBuilder b = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            boolean control = (Character.isISOControl(c) && c != '\t') || c == '\u2028' || c == '\u2029'
                    || (Character.isSurrogate(c) && !validSurrogate(line, i));
            if (control && b == null) {
                b = new StringBuilder(line.length() + 16).append(line, 0, i);
            }
            if (b != null) {
                if (control) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? line : b.toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
