package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironloop.config.Units;
import io.ironloop.launcher.rank.LauncherLink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The online-recovery side of one attempt: whether every rank declared that its job recovers from lost ranks
 * in the running job ({@value LauncherLink#PROTECTION}), the ranks lost while it did, and whether the survivors
 * reported on each loss — {@value LauncherLink#RECOVERED} or {@value LauncherLink#RECOVERY_IMPOSSIBLE} — within
 * the {@linkplain LaunchSpec#recoveryDeadline() deadline}. It keeps the books and records its events in the
 * timeline; {@link JobAttempt} acts on the {@link Failure}s it returns (stops the ranks, fails the attempt).
 *
 * <p>A report may overtake the lost rank's exit (the group notices a dead socket before the launcher reaps
 * the process), or name a rank that is still alive (fenced after SIGSTOP): a rank already reported recovered
 * is not waited for when its exit arrives. Once a recovery failed, the attempt is no longer protected, so
 * the exits that follow fail it as usual. Supervisor thread only.
 */
final class OnlineLosses {
    /**
     * Why the online recovery of a loss failed, and so the attempt.
     *
     * @param rank the lost rank the failure is charged to (its exit status is the attempt's), or -1 when no
     *     lost rank has exited yet
     * @param status that rank's exit status
     * @param cause what happened, for the operator
     * @param stopNow whether the survivors must be stopped now (they are hung), rather than given --settle to
     *     exit by themselves (they said they will)
     */
    record Failure(int rank, int status, String cause, boolean stopNow) {
    }

    /**
     * What happened online in an attempt.
     *
     * @param lost the ranks lost while the attempt was protected, in the order their exits were seen
     * @param recoveries how many {@value LauncherLink#RECOVERED} reports arrived
     * @param failure why the attempt failed after a loss, when its online recovery failed
     */
    record Summary(List<Integer> lost, int recoveries, Optional<String> failure) {
        /** Copies the list. */
        Summary {
            lost = List.copyOf(lost);
        }

        /** Nothing happened online. */
        static final Summary NONE = new Summary(List.of(), 0, Optional.empty());
    }

    private record Loss(int rank, int status, Instant at) {
    }

    private final int attempt;
    private final int size;
    private final Duration deadline;
    private final Timeline timeline;
    private final LauncherLog log;
    private final Set<Integer> declared = new HashSet<>();
    private final Map<Integer, Loss> pending = new LinkedHashMap<>();
    private final Set<Integer> reported = new HashSet<>();
    private final List<Integer> lost = new ArrayList<>();
    private int recoveries;
    private String failure;

    OnlineLosses(int attempt, int size, Duration deadline, Timeline timeline, LauncherLog log) {
        this.attempt = attempt;
        this.size = size;
        this.deadline = deadline;
        this.timeline = timeline;
        this.log = log;
    }

    /** Whether a rank's exit leaves the attempt running: every rank declared online protection and none failed to recover. */
    boolean protects() {
        return failure == null && declared.size() == size;
    }

    /** A rank's {@value LauncherLink#PROTECTION} event. */
    void declared(int rank, JsonNode event) {
        if (!event.path("online").asBoolean(false) || !declared.add(rank) || declared.size() < size) {
            return;
        }
        log.info("every rank recovers online: a lost rank no longer ends the attempt; the survivors have "
                + Units.formatDuration(deadline) + " to report each recovery");
        timeline.supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.ONLINE_PROTECTED,
                fields("ranks", size, "deadline_s", deadline.toMillis() / 1000.0));
    }

    /**
     * A rank of a protected attempt exited non-zero and the others keep running.
     *
     * @param why how it exited, for the log
     */
    void lost(SupervisorInput.RankExited e, Long iteration, boolean injected, String why) {
        lost.add(e.rank());
        boolean known = reported.contains(e.rank());
        if (!known) {
            pending.put(e.rank(), new Loss(e.rank(), e.status(), e.time()));
        }
        timeline.supervisor(e.time(), attempt, e.rank(), e.pid(), TimelineEvent.RANK_LOST,
                fields("status", e.status(), "iteration", iteration, "injected", injected,
                        "deadline_s", known ? null : deadline.toMillis() / 1000.0));
        log.info("rank " + e.rank() + " (pid " + e.pid() + ") " + why + (known
                ? "; the survivors already recovered from its loss"
                : "; the other ranks keep running and recover online (they have " + Units.formatDuration(deadline)
                        + " to report it)"));
    }

    /** The earliest time a pending loss becomes overdue, if any is pending. */
    Optional<Instant> nextDeadline() {
        return pending.values().stream().map(l -> l.at().plus(deadline)).min(Instant::compareTo);
    }

    /**
     * A {@value LauncherLink#RECOVERED} report: its lost ranks are no longer waited for. It counts as a recovery
     * when it names a rank no earlier report named (a world rank is lost once), so a report that more than rank 0
     * of the shrunk group sent counts once.
     */
    void recovered(int reporter, JsonNode event) {
        List<Integer> ranks = ranks(event.path("lost"));
        if (reported.containsAll(ranks)) {
            return;
        }
        recoveries++;
        reported.addAll(ranks);
        ranks.forEach(pending::remove);
        log.info("the survivors recovered online from the loss of rank" + (ranks.size() == 1 ? " " : "s ") + ranks
                + " (reported by rank " + reporter + "): restored from " + event.path("source").asText("?")
                + ", continuing at iteration " + event.path("iteration").asText("?")
                + (pending.isEmpty() ? "" : "; still waiting for the survivors of ranks " + pending.keySet()));
    }

    /** A {@value LauncherLink#RECOVERY_IMPOSSIBLE} report: the attempt fails; the survivors exit by themselves. */
    Failure impossible(int reporter, JsonNode event) {
        List<Integer> ranks = ranks(event.path("lost"));
        String reason = event.path("reason").asText("no reason given");
        Loss charged = ranks.stream().map(pending::get).filter(l -> l != null).findFirst()
                .orElseGet(() -> pending.values().stream().findFirst().orElse(null));
        return fail(charged, "the survivors cannot recover online from the loss of rank" + (ranks.size() == 1 ? " " : "s ")
                + ranks + " (rank " + reporter + "): " + reason, false);
    }

    /** The failure of a loss nobody reported on within the deadline, if one is overdue at {@code now}. */
    Optional<Failure> overdue(Instant now) {
        if (failure != null) {
            return Optional.empty();
        }
        Optional<Loss> late = pending.values().stream().filter(l -> !now.isBefore(l.at().plus(deadline))).findFirst();
        return late.map(l -> fail(l, "no survivor reported an online recovery from the loss of rank " + l.rank()
                + " within " + Units.formatDuration(deadline) + " (the group's failure-detection time + "
                + Units.formatDuration(LaunchSpec.RECOVERY_MARGIN) + ")", true));
    }

    /** Losses nobody reported on, at the end of an attempt whose survivors all exited 0. */
    List<Integer> unreported() {
        return List.copyOf(pending.keySet());
    }

    /** What happened online so far. */
    Summary summary() {
        return new Summary(lost, recoveries, Optional.ofNullable(failure));
    }

    private Failure fail(Loss charged, String cause, boolean stopNow) {
        failure = cause;
        pending.clear();
        log.error(cause + "; the job will be relaunched from disk if restarts remain");
        timeline.supervisor(attempt, charged == null ? TimelineEvent.NO_RANK : charged.rank(), TimelineEvent.NO_PID,
                TimelineEvent.ONLINE_RECOVERY_FAILED, fields("reason", cause));
        return charged == null ? new Failure(-1, 0, cause, stopNow) : new Failure(charged.rank(), charged.status(), cause, stopNow);
    }

    private static List<Integer> ranks(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        for (JsonNode n : array) {
            if (n.canConvertToInt() && n.asInt() >= 0) {
                out.add(n.asInt());
            }
        }
        return out;
    }
}
