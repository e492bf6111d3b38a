package io.ironloop.cli.view;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A progress bar on the last line of the terminal, for long work: {@code label [#########.........] 45% 9/20 12 s}.
 * Drawn on the process's standard error only when that is a terminal ({@link #stderrIsTerminal()}), never on standard
 * output (which carries results); otherwise every method does nothing, so pipes, files and tests see no bar. Lines
 * other code prints to standard error while a bar is shown must go through {@link #lines(PrintStream)}, which clears
 * the bar before each line and draws it again after.
 *
 * <p>Thread-safe; redrawn at most 5 times a second.
 */
public final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final ProgressBar NONE = new ProgressBar(null, "", 0);

    private final PrintStream terminal;
    private final String label;
    private final long started = System.nanoTime();
    private long total;
    private long done;
    private long drawnAt;
    private boolean shown;
    private boolean closed;

    private ProgressBar(PrintStream terminal, String label, long total) {
        this.terminal = terminal;
        this.label = label;
        this.total = total;
    }

    /** Redraws the bar twice a second while it is shown, so that its clock moves during a long step. */
    private ProgressBar ticking() {
        Thread t = new Thread(() -> {
            try {
                while (!closed()) {
                    Thread.sleep(500);
                    redrawIfShown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ironloop-progress");
        t.setDaemon(true);
        t.start();
        return this;
    }

    private synchronized boolean closed() {
        return closed;
    }

    private synchronized void redrawIfShown() {
        if (shown) {
            draw(true);
        }
    }

    /**
     * A bar for {@code total} steps (0: not known yet, a count without a bar), or a no-op when standard error is not a
     * terminal.
     */
    public static ProgressBar start(String label, long total) {
        return stderrIsTerminal() ? new ProgressBar(System.err, label, total).ticking() : NONE;
    }

    /** A bar drawn on {@code terminal} whatever it is (tests). */
    static ProgressBar on(PrintStream terminal, String label, long total) {
        return new ProgressBar(terminal, label, total);
    }

    /**
     * Whether this process's standard error is a terminal: {@code -Dironloop.stderr.tty=true|false} when given
     * ({@code bin/ironloop} passes what {@code [ -t 2 ]} says), otherwise what {@code /proc/self/fd/2} points to (a
     * {@code /dev/pts/N} or {@code /dev/ttyN}); false where neither tells.
     */
    public static boolean stderrIsTerminal() {
        String told = System.getProperty("ironloop.stderr.tty");
        if (told != null) {
            return Boolean.parseBoolean(told);
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Whether this bar draws anything. */
    public boolean shown() {
        return terminal != null;
    }

    /** Sets the number of steps (when it becomes known). */
    public synchronized void total(long steps) {
        total = steps;
        draw(false);
    }

    /** One more step done. */
    public void step() {
        set(Optional.empty());
    }

    /** {@code steps} steps done in all. */
    public void done(long steps) {
        set(Optional.of(steps));
    }

    private synchronized void set(Optional<Long> steps) {
        done = steps.orElse(done + 1);
        draw(total > 0 && done >= total);
    }

    /** The line as drawn now (without the carriage return and the clearing). */
    synchronized String line() {
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        if (total <= 0) {
            return String.format(Locale.ROOT, "%s %d  %d s", label, done, seconds);
        }
        double fraction = Math.min(1.0, (double) done / total);
        int filled = (int) Math.round(fraction * WIDTH);
        return String.format(Locale.ROOT, "%s [%s%s] %3d%% %d/%d  %d s", label, "#".repeat(filled), ".".repeat(WIDTH - filled),
                Math.round(fraction * 100), done, total, seconds);
    }

    private void draw(boolean force) {
        if (terminal == null || closed) {
            return;
        }
        long now = System.nanoTime();
        if (!force && shown && now - drawnAt < REDRAW_NANOS) {
            return;
        }
        drawnAt = now;
        shown = true;
        terminal.print("\r\033[K" + line());
        terminal.flush();
    }

    /**
     * Clears the bar's line, before the work prints lines of its own elsewhere (standard output); the next
     * {@link #step()}, {@link #done} or {@link #total} shows it again.
     */
    public synchronized void clear() {
        if (terminal != null && shown) {
            terminal.print("\r\033[K");
            terminal.flush();
            shown = false;
        }
    }

    /**
     * A stream for lines printed while the bar is shown: each write clears the bar first; a completed line draws it
     * again. Without a bar, {@code err} itself.
     */
    public PrintStream lines(PrintStream err) {
        if (terminal == null) {
            return err;
        }
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (ProgressBar.this) {
                    clear();
                    err.write(b, off, len);
                    err.flush();
                    if (len > 0 && b[off + len - 1] == '\n') {
                        draw(true);
                    }
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    /** Clears the bar's line for good, at the end of the work. */
    @Override
    public synchronized void close() {
        clear();
        closed = true;
    }
}
