package io.ironloop.cli.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * Forwards one of a rank's output streams line by line, each line prefixed with {@code [rank] }, to the
 * launcher's corresponding stream. Each line is printed with one {@code println}, so lines of different
 * ranks never mix. Runs on its own daemon thread until the rank closes the stream.
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
        String prefix = "[" + rank + "] ";
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()))) {
            String line;
            while ((line = reader.readLine()) != null) {
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
}
