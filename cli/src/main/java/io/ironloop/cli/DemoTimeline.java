package io.ironloop.cli;

import io.ironloop.launcher.TimelineEvent;
import io.ironloop.launcher.rank.SavedLevel;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the launcher's timeline events into the demo's sentences: what the supervisor did and what the
 * ranks reported (detected, saved, restarted, resumed at iteration i, tasks skipped, and an online recovery
 * as detect → shrink → restore from partner memory or disk → rebalance → continue, with the measured
 * durations). Routine events (every iteration, connections, clean exits, protection declarations) are left
 * out. Stateless.
 */
final class DemoTimeline {
    private DemoTimeline() {
    }

    /** One line for the event, or empty when the demo does not show it: offset from {@code start}, pid, rank, sentence. */
    static Optional<String> line(Instant start, TimelineEvent e) {
        String who = e.source() == TimelineEvent.Source.SUPERVISOR ? "supervisor" : "rank " + e.rank();
        String pid = e.pid() == TimelineEvent.NO_PID ? "" : "pid " + e.pid();
        return sentence(e).map(s -> String.format(Locale.ROOT, "%9.3fs  %-10s %-10s  %s",
                Duration.between(start, e.time()).toMillis() / 1000.0, pid, who, s));
    }

    /** The sentence for an event, or empty for routine ones. */
    static Optional<String> sentence(TimelineEvent e) {
        Map<String, Object> f = e.fields();
        String s = e.source() == TimelineEvent.Source.SUPERVISOR ? supervisor(e, f) : rank(e, f);
        return Optional.ofNullable(s);
    }

    private static String supervisor(TimelineEvent e, Map<String, Object> f) {
        return switch (e.type()) {
            case TimelineEvent.JOB_STARTED -> "job " + f.get("job") + " started: " + f.get("ranks") + " ranks, up to "
                    + f.get("restarts") + " restarts";
            case TimelineEvent.ATTEMPT_STARTED -> e.attempt() == 0 ? null
                    : "restarted the job (attempt " + e.attempt() + "): the ranks resume from the checkpoints";
            case TimelineEvent.FAULT_INJECTED -> "injected " + f.get("signal") + " into rank " + e.rank() + " ("
                    + f.get("fault") + (f.containsKey("iteration") ? ", at iteration " + f.get("iteration") : "") + ")";
            case TimelineEvent.RANK_EXITED -> Integer.valueOf(0).equals(f.get("status")) ? null
                    : "rank " + e.rank() + " exited with status " + f.get("status")
                            + (f.get("signal") != null ? " (" + f.get("signal") + ")" : "");
            case TimelineEvent.ONLINE_PROTECTED -> "every rank recovers online: a lost rank no longer ends the attempt"
                    + " (the survivors have " + f.get("deadline_s") + " s to report each recovery)";
            case TimelineEvent.RANK_LOST -> "lost rank " + e.rank() + (f.get("iteration") != null
                    ? " (last reported iteration " + f.get("iteration") + ")" : "") + ": the others keep running and recover online";
            case TimelineEvent.ONLINE_RECOVERY_FAILED -> "online recovery failed: " + f.get("reason")
                    + "; the job is relaunched from disk";
            case TimelineEvent.FAILURE_DETECTED -> "supervisor detected the failure of rank " + e.rank()
                    + (f.get("iteration") != null ? " (last reported iteration " + f.get("iteration") + ")" : "");
            case TimelineEvent.STOPPING -> "stopping ranks " + f.get("ranks") + " with " + f.get("signal") + ": " + f.get("reason");
            case TimelineEvent.GRACE_EXPIRED -> "killed ranks " + f.get("ranks") + " after the grace period";
            case TimelineEvent.STOPPED_RANK_KILLED -> "killed rank " + e.rank() + " (SIGKILL): it was stopped (SIGSTOP); "
                    + f.get("reason");
            case TimelineEvent.RESTART_SCHEDULED -> "restart scheduled: attempt " + f.get("next_attempt") + " in "
                    + f.get("delay_ms") + " ms";
            case TimelineEvent.RESTART_STORM, TimelineEvent.USAGE_ERROR -> String.valueOf(f.get("message"));
            case TimelineEvent.SIGNAL_RECEIVED -> "the demo received " + f.get("signal");
            case TimelineEvent.JOB_FINISHED -> "job finished with status " + f.get("status") + " after " + f.get("attempts")
                    + " attempt" + (Integer.valueOf(1).equals(f.get("attempts")) ? "" : "s")
                    + (f.get("online_recoveries") instanceof Number n && n.intValue() > 0
                            ? " and " + n + " online recover" + (n.intValue() == 1 ? "y" : "ies") : "");
            default -> null;
        };
    }

    private static String rank(TimelineEvent e, Map<String, Object> f) {
        return switch (e.type()) {
            case "detected" -> "detected the failure of rank" + plural(f.get("failed")) + " " + f.get("failed");
            case "trigger" -> "received " + cause(f.get("cause")) + ": saving its published state";
            case "saved" -> SavedLevel.isRoutine(f.get("level")) ? null
                    : SavedLevel.LOCAL.equals(f.get("level")) ? "saved its local state (finished tasks) at iteration " + f.get("iteration")
                    : SavedLevel.DISK.equals(f.get("level")) ? "wrote its blocks' disk line of iteration " + f.get("iteration")
                    : "saved the global state of iteration " + f.get("iteration");
            case "shrunk" -> "shrank the group without rank" + plural(f.get("lost")) + " " + f.get("lost") + " to "
                    + f.get("size") + " ranks in " + seconds(f.get("shrink_s"));
            case "recovered" -> recovered(f);
            case "recovery-impossible" -> "cannot recover online from the loss of rank" + plural(f.get("lost")) + " "
                    + f.get("lost") + ": " + f.get("reason") + "; the survivors exit and the job is relaunched from disk";
            case "protection" -> null;
            case "restored" -> "resumed at iteration " + f.get("iteration");
            case "devices" -> String.valueOf(f.get("message")); // a device app's restart: kind, count, adaptability
            case "restored-local" -> "restored its local state of iteration " + f.get("iteration");
            case "tasks-skipped" -> "skipped " + tasks(f.get("count")) + " finished before the restart";
            case "tasks-stolen" -> "stole " + tasks(f.get("count")) + " from rank " + f.get("from") + " in round " + f.get("round");
            case "settings-changed" -> "the settings changed: starting fresh";
            case "complete" -> e.rank() == 0 ? "complete at iteration " + f.get("iteration") : null;
            case "iteration", "plan" -> null;
            default -> e.type() + " " + f;
        };
    }

    /** detect → shrink → restore → rebalance → continue, with the measured durations. */
    private static String recovered(Map<String, Object> f) {
        String from = "memory".equals(f.get("source")) ? "partner memory" : String.valueOf(f.get("source"));
        Object spares = f.get("spares");
        boolean adopted = spares instanceof Number n && n.intValue() > 0;
        return "recovered online from the loss of rank" + plural(f.get("lost")) + " " + f.get("lost") + ": detect "
                + seconds(f.get("detect_s")) + " → shrink " + seconds(f.get("shrink_s")) + " → restore from " + from + " "
                + seconds(f.get("restore_s")) + " → rebalance " + seconds(f.get("rebalance_s"))
                + (adopted ? " (" + spares + " spare" + (((Number) spares).intValue() == 1 ? "" : "s") + " adopted the work)" : "")
                + " → continue at iteration " + f.get("iteration");
    }

    /** A duration field in seconds, with milliseconds. */
    private static String seconds(Object value) {
        return value instanceof Number n ? String.format(Locale.ROOT, "%.3f s", n.doubleValue()) : "? s";
    }

    /** {@code SignalReceived[signal=TERM, ...]} as {@code SIGTERM}; other causes as they are. */
    private static String cause(Object cause) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("signal=([A-Z0-9]+)").matcher(String.valueOf(cause));
        return m.find() ? "SIG" + m.group(1) : String.valueOf(cause);
    }

    private static String tasks(Object count) {
        return count + (Integer.valueOf(1).equals(count) || Long.valueOf(1).equals(count) ? " task" : " tasks");
    }

    private static String plural(Object list) {
        return list instanceof java.util.List<?> l && l.size() > 1 ? "s" : "";
    }
}
