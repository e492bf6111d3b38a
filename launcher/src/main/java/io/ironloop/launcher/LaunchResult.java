package io.ironloop.launcher;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * How a supervised run ended. Immutable.
 *
 * @param exitStatus 0 when every rank of the last attempt exited 0; 130 / 143 after SIGINT / SIGTERM to
 *     the launcher; 2 for a usage error found during the run (a fault that cannot or did not fire);
 *     otherwise the status of the first rank that failed in the last attempt
 * @param attempts how many attempts were started (1 without restarts)
 * @param onlineRecoveries how many times the survivors of a loss recovered online, in the same attempt
 *     (their {@code recovered} reports, over all attempts)
 * @param started when the job started
 * @param timeline every event, in the order the supervisor recorded it
 * @param summary one sentence saying how the run ended, for the operator
 */
public record LaunchResult(int exitStatus, int attempts, int onlineRecoveries, Instant started, List<TimelineEvent> timeline,
        String summary) {

    /**
     * Copies the timeline.
     *
     * @throws IllegalArgumentException if {@code attempts} is below 1 or {@code onlineRecoveries} is negative
     */
    public LaunchResult {
        Objects.requireNonNull(started, "started");
        if (attempts < 1 || onlineRecoveries < 0) {
            throw new IllegalArgumentException(attempts + " attempts and " + onlineRecoveries
                    + " online recoveries: expected at least 1 attempt and no negative count");
        }
        Objects.requireNonNull(summary, "summary");
        timeline = List.copyOf(timeline);
    }

    /** How many times the job was relaunched after a failed attempt: {@link #attempts()} − 1. */
    public int relaunches() {
        return attempts - 1;
    }

    /** The events of one type, in order. */
    public Stream<TimelineEvent> events(String type) {
        return timeline.stream().filter(e -> e.type().equals(type));
    }

    /** Prints the timeline, one {@link TimelineEvent#format formatted} event per line. */
    public void printTimeline(PrintStream out) {
        out.println("ironloop: timeline (" + timeline.size() + " events)");
        for (TimelineEvent e : timeline) {
            out.println("  " + e.format(started));
        }
        out.flush();
    }
}
