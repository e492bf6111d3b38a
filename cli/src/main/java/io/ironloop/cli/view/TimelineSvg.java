package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import io.ironloop.launcher.rank.SavedLevel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Draws a run's timeline as one self-contained SVG (no scripts, fonts or images from elsewhere): one row per rank
 * and a row for the supervisor, time from left to right, as the papers draw their runs. Per rank and attempt a
 * bar from its start to its exit with a tick per reported iteration (labelled now and then), checkpoints as
 * diamonds (one colour per level), the injected fault and a failed exit as red crosses (the other ranks' exits that
 * the failure caused as grey bars), the detection (by the
 * supervisor or by the ranks) as orange triangles, recoveries (a restore at restart, an online recovery) as
 * purple circles, the pause between attempts as a grey band.
 *
 * <p>Every mark is an SVG element with {@code class} (its {@link Mark kind}), {@code data-rank} (or -1 for the
 * job) and {@code data-t} (seconds since the job's start), and a {@code <title>} saying what it is, so a reader
 * (a browser's tooltip, a test) can tell the marks apart. Stateless.
 */
public final class TimelineSvg {
    /** The kinds of marks, their CSS class names and colours. */
    public enum Mark {
        /** A rank's attempt, from start to exit. */
        RUN("run", "#c5d5ea"),
        /** A reported iteration. */
        ITERATION("iteration", "#4c6ef5"),
        /** A checkpoint of the global state (rank 0's series and its copy) or a block loop's disk line. */
        CHECKPOINT("checkpoint", "#2b8a3e"),
        /** A checkpoint of a rank's local state. */
        LOCAL_CHECKPOINT("checkpoint-local", "#82c91e"),
        /** An injected fault or a rank's failed exit. */
        FAILURE("failure", "#e03131"),
        /** A rank that exited non-zero after another rank's failure in the same attempt (it stopped because of it). */
        STOPPED("stopped", "#868e96"),
        /** The failure detected (supervisor or ranks). */
        DETECTION("detection", "#f08c00"),
        /** A restore at restart or an online recovery. */
        RECOVERY("recovery", "#7048e8"),
        /** The pause between a failed attempt and the next. */
        RESTART("restart", "#dee2e6");

        private final String cssClass;
        private final String colour;

        Mark(String cssClass, String colour) {
            this.cssClass = cssClass;
            this.colour = colour;
        }

        /** The mark's {@code class} attribute. */
        public String cssClass() {
            return cssClass;
        }

        /** The mark's fill colour, {@code #rrggbb}. */
        public String colour() {
            return colour;
        }
    }

    private static final int WIDTH = 1000;
    private static final int LEFT = 90;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int ROW = 34;

    private TimelineSvg() {
    }

    /**
     * The SVG of a timeline.
     *
     * @param events the events of one job, in the order recorded (as {@link TimelineFile#read} returns them)
     * @param now the right end of the time axis for a running job, or null to end it at the last event
     * @return the SVG document, UTF-8 text
     */
    public static String render(List<TimelineEvent> events, Instant now) {
        if (events.isEmpty()) {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"60\"><text x=\"10\" y=\"30\">"
                    + "no events yet</text></svg>\n";
        }
        Instant start = events.get(0).time();
        Instant end = now != null ? now : events.get(events.size() - 1).time();
        double span = Math.max(0.001, seconds(start, end));
        TreeSet<Integer> rankSet = new TreeSet<>();
        int declared = 0;
        for (TimelineEvent e : events) {
            if (e.rank() != TimelineEvent.NO_RANK) {
                rankSet.add(e.rank());
            }
            if (TimelineEvent.JOB_STARTED.equals(e.type())) {
                declared = e.longField("ranks").orElse(0) > 0 ? (int) (e.longField("ranks").getAsLong()
                        + e.longField("spares").orElse(0)) : 0;
            }
        }
        for (int r = 0; r < declared; r++) {
            rankSet.add(r);
        }
        int rows = (rankSet.isEmpty() ? 0 : rankSet.last() + 1) + 1; // ranks, then the job's row
        int jobRow = rows - 1;
        int height = TOP + rows * ROW + 60;
        Canvas c = new Canvas(start, span);
        StringBuilder out = c.out;
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, height, WIDTH, height));
        out.append("<title>").append(esc(title(events))).append("</title>\n");
        out.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, height));
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
                LEFT, esc(title(events))));
        axis(c, span, rows);
        for (int r = 0; r < rows; r++) {
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 8,
                    rowY(r) + 4.0, r == jobRow ? "supervisor" : "rank " + r));
        }
        restarts(c, events, rows);
        runs(c, events, end);
        for (TimelineEvent e : events) {
            int row = e.rank() == TimelineEvent.NO_RANK ? jobRow : e.rank();
            mark(c, e, row);
        }
        legend(c, TOP + rows * ROW + 30);
        out.append("</svg>\n");
        return out.toString();
    }

    private static String title(List<TimelineEvent> events) {
        TimelineEvent first = events.get(0);
        Object job = first.fields().get("job");
        Object main = first.fields().get("main");
        return "ironloop timeline" + (job != null ? " of " + job : "") + (main != null ? " (" + main + ")" : "");
    }

    private static void axis(Canvas c, double span, int rows) {
        double step = niceStep(span / 10);
        double bottom = TOP + rows * ROW - ROW / 2.0 + 4;
        c.out.append(String.format(Locale.ROOT, "<g class=\"axis\" stroke=\"#adb5bd\">"
                + "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/></g>%n", LEFT, bottom, WIDTH - RIGHT, bottom));
        for (double t = 0; t <= span + 1e-9; t += step) {
            double x = c.x(t);
            c.out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#f1f3f5\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#495057\">%s s</text>%n", x, TOP - 10, x, bottom,
                    x, bottom + 14, format(t, step)));
        }
    }

    /** Grey bands from each {@code restart-scheduled} to the next {@code attempt-started}. */
    private static void restarts(Canvas c, List<TimelineEvent> events, int rows) {
        Instant from = null;
        for (TimelineEvent e : events) {
            if (TimelineEvent.RESTART_SCHEDULED.equals(e.type())) {
                from = e.time();
            } else if (TimelineEvent.ATTEMPT_STARTED.equals(e.type()) && from != null) {
                double x0 = c.x(from);
                double x1 = c.x(e.time());
                c.out.append(String.format(Locale.ROOT, "<rect class=\"%s\" data-rank=\"-1\" data-t=\"%s\" x=\"%.1f\" y=\"%d\""
                        + " width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>restart: attempt %d starts</title></rect>%n",
                        Mark.RESTART.cssClass, c.t(from), x0, TOP - 6, Math.max(1.0, x1 - x0), rows * ROW, Mark.RESTART.colour,
                        e.attempt()));
                from = null;
            }
        }
    }

    /** A bar per rank and attempt, from its start to its exit (or to {@code end} while it runs). */
    private static void runs(Canvas c, List<TimelineEvent> events, Instant end) {
        List<TimelineEvent> starts = new ArrayList<>();
        for (TimelineEvent e : events) {
            if (TimelineEvent.RANK_STARTED.equals(e.type())) {
                starts.add(e);
            }
        }
        for (TimelineEvent s : starts) {
            Instant exit = end;
            for (TimelineEvent e : events) {
                if (TimelineEvent.RANK_EXITED.equals(e.type()) && e.rank() == s.rank() && e.attempt() == s.attempt()) {
                    exit = e.time();
                    break;
                }
            }
            double x0 = c.x(s.time());
            c.out.append(String.format(Locale.ROOT, "<rect class=\"%s\" data-rank=\"%d\" data-t=\"%s\" x=\"%.1f\" y=\"%.1f\""
                    + " width=\"%.1f\" height=\"10\" rx=\"2\" fill=\"%s\"><title>rank %d, attempt %d</title></rect>%n",
                    Mark.RUN.cssClass, s.rank(), c.t(s.time()), x0, rowY(s.rank()) - 5.0, Math.max(1.0, c.x(exit) - x0),
                    Mark.RUN.colour, s.rank(), s.attempt()));
        }
    }

    private static void mark(Canvas c, TimelineEvent e, int row) {
        double x = c.x(e.time());
        double y = rowY(row);
        Map<String, Object> f = e.fields();
        switch (e.type()) {
            case "iteration" -> {
                if (!c.tickRoom(row, x)) {
                    return; // ticks closer than 2 px: one stands for them (the picture stays small for long runs)
                }
                long it = e.longField("iteration").orElse(-1);
                c.open(Mark.ITERATION, e, "iteration " + it);
                c.out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
                        x, y - 5, x, y + 5, Mark.ITERATION.colour));
                if (c.labelIteration(row, x)) {
                    c.out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\""
                            + " text-anchor=\"middle\">%d</text>", x, y - 8, Mark.ITERATION.colour, it));
                }
                c.close();
            }
            case "saved" -> {
                if (SavedLevel.MEMORY.equals(f.get("level"))) {
                    return; // a block loop's in-memory snapshots, every few iterations: the dashboard counts them, the picture does not
                }
                Mark m = SavedLevel.isLocal(f.get("level")) ? Mark.LOCAL_CHECKPOINT : Mark.CHECKPOINT;
                c.open(m, e, "checkpoint (" + f.get("level") + ") of iteration " + f.get("iteration"));
                c.out.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l5 5 l-5 5 l-5 -5 z\" fill=\"%s\" stroke=\"#ffffff\""
                        + " stroke-width=\"0.5\"/>", x, y - 5, m.colour));
                c.close();
            }
            case TimelineEvent.FAULT_INJECTED -> cross(c.fault(e), e, x, y, "fault injected: " + f.get("signal") + " ("
                    + f.get("fault") + (f.containsKey("iteration") ? ", iteration " + f.get("iteration") : "") + ")");
            case TimelineEvent.RANK_EXITED -> {
                if (e.longField("status").orElse(-1) != 0) {
                    String what = "exited with status " + f.get("status") + (f.get("signal") != null ? " (" + f.get("signal") + ")" : "");
                    if (c.failedAttempts.add(e.attempt()) || c.faulted.contains(e.attempt() + "/" + e.rank())) {
                        cross(c, e, x, y, what);
                    } else {
                        c.open(Mark.STOPPED, e, what + " after the failure");
                        c.out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"4\" height=\"12\" fill=\"%s\"/>",
                                x - 2, y - 6, Mark.STOPPED.colour));
                        c.close();
                    }
                }
            }
            case TimelineEvent.RANK_LOST -> cross(c.fault(e), e, x, y, "rank lost; the others recover online");
            case TimelineEvent.FAILURE_DETECTED -> triangle(c, e, x, rowY(row), "the supervisor detected the failure of rank "
                    + e.rank() + (f.get("iteration") != null ? " (iteration " + f.get("iteration") + ")" : ""));
            case "detected" -> triangle(c, e, x, y, "detected the failure of rank(s) " + f.get("failed"));
            case "restored" -> circle(c, e, x, y, "restored iteration " + f.get("iteration"));
            case "recovered" -> circle(c, e, x, y, "recovered online from the loss of " + f.get("lost") + " from "
                    + f.get("source") + ", continuing at iteration " + f.get("iteration"));
            default -> {
                // routine events (connections, plans, protection) are not drawn
            }
        }
    }

    /** A failure mark on the failed rank's row (the supervisor's events name the rank). */
    private static void cross(Canvas c, TimelineEvent e, double x, double y, String what) {
        c.open(Mark.FAILURE, e, what);
        c.out.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l10 10 m0 -10 l-10 10\" stroke=\"%s\" stroke-width=\"3\""
                + " stroke-linecap=\"round\"/>", x - 5, y - 5, Mark.FAILURE.colour));
        c.close();
    }

    private static void triangle(Canvas c, TimelineEvent e, double x, double y, String what) {
        c.open(Mark.DETECTION, e, what);
        c.out.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l6 11 l-12 0 z\" fill=\"%s\"/>", x, y - 6,
                Mark.DETECTION.colour));
        c.close();
    }

    private static void circle(Canvas c, TimelineEvent e, double x, double y, String what) {
        c.open(Mark.RECOVERY, e, what);
        c.out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"%s\"/>", x, y,
                Mark.RECOVERY.colour));
        c.close();
    }

    private static void legend(Canvas c, int y) {
        int x = LEFT;
        for (Mark m : Mark.values()) {
            c.out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y - 10, m.colour, x + 16, y, m.cssClass));
            x += 28 + 7 * m.cssClass.length();
        }
    }

    private static double rowY(int row) {
        return TOP + row * ROW + ROW / 2.0 - 6;
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String format(double t, double step) {
        return step >= 1 ? String.format(Locale.ROOT, "%.0f", t) : String.format(Locale.ROOT, "%.1f", t);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** The drawing: the time scale and the text so far. */
    private static final class Canvas {
        final StringBuilder out = new StringBuilder(16_384);
        final Instant start;
        final double span;
        private final java.util.Map<Integer, Double> lastLabel = new java.util.HashMap<>();
        private final java.util.Map<Integer, Double> lastTick = new java.util.HashMap<>();
        /** Attempts in which a failure was drawn; ranks (attempt/rank) that a fault hit. */
        final java.util.Set<Integer> failedAttempts = new java.util.HashSet<>();
        final java.util.Set<String> faulted = new java.util.HashSet<>();

        Canvas(Instant start, double span) {
            this.start = start;
            this.span = span;
        }

        double x(double t) {
            return LEFT + (WIDTH - LEFT - RIGHT) * t / span;
        }

        double x(Instant time) {
            return x(seconds(start, time));
        }

        String t(Instant time) {
            return String.format(Locale.ROOT, "%.3f", seconds(start, time));
        }

        /** Whether an iteration tick at {@code x} on {@code row} is drawn: ticks stay 2 px apart. */
        boolean tickRoom(int row, double x) {
            Double last = lastTick.get(row);
            if (last != null && x - last < 2 && x >= last) {
                return false;
            }
            lastTick.put(row, x);
            return true;
        }

        /** Whether an iteration at {@code x} on {@code row} gets its number: labels stay 40 px apart. */
        boolean labelIteration(int row, double x) {
            Double last = lastLabel.get(row);
            if (last != null && x - last < 40) {
                return false;
            }
            lastLabel.put(row, x);
            return true;
        }

        /** Notes a fault (injected, or a lost rank) on {@code e}'s rank. */
        Canvas fault(TimelineEvent e) {
            failedAttempts.add(e.attempt());
            faulted.add(e.attempt() + "/" + e.rank());
            return this;
        }

        void open(Mark m, TimelineEvent e, String what) {
            out.append(String.format(Locale.ROOT, "<g class=\"%s\" data-rank=\"%d\" data-t=\"%s\" data-attempt=\"%d\"><title>%s</title>",
                    m.cssClass, e.rank(), t(e.time()), e.attempt(), esc((e.rank() == TimelineEvent.NO_RANK ? "" : "rank "
                            + e.rank() + ": ") + what + String.format(Locale.ROOT, " at %.3f s", seconds(start, e.time())))));
        }

        void close() {
            out.append("</g>\n");
        }
    }
}
