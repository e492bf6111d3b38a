package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import io.ironloop.launcher.rank.SavedLevel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Watches the job's folder for a {@link HaltRequest} and says when it is due: at once ({@code now}), at its
 * instant ({@code at}), or when a rank reports the next checkpoint of the whole job committed
 * ({@code after-next-checkpoint}: a {@code saved} event of level {@code global} or {@code disk} that arrived
 * after the request was seen). Polls at most every {@link HaltRequest#POLL}. Used by the supervisor thread.
 */
final class Halting {
    private final Optional<Path> folder;
    private final int attempt;
    private final Timeline timeline;
    private final LauncherLog log;
    private Instant nextPoll = Instant.EPOCH;
    private HaltRequest request;
    private Instant seenAt;
    private String unreadable;
    private String reason;

    Halting(Optional<Path> folder, int attempt, Timeline timeline, LauncherLog log) {
        this.folder = Objects.requireNonNull(folder, "folder");
        this.attempt = attempt;
        this.timeline = timeline;
        this.log = log;
    }

    /** When the supervisor should call {@link #due} next; empty when there is nothing to watch. */
    Optional<Instant> nextCheck() {
        if (folder.isEmpty() || reason != null) {
            return Optional.empty();
        }
        Instant next = nextPoll;
        if (request != null && request.at().isPresent() && request.at().get().isBefore(next)) {
            next = request.at().get();
        }
        return Optional.of(next);
    }

    /** Polls the folder when it is time; returns why the job must halt now, once. */
    Optional<String> due(Instant now) {
        if (folder.isEmpty() || reason != null) {
            return Optional.empty();
        }
        if (!now.isBefore(nextPoll)) {
            nextPoll = now.plus(HaltRequest.POLL);
            poll(folder.get(), now);
        }
        if (request == null) {
            return Optional.empty();
        }
        return switch (request.mode()) {
            case NOW -> act("on request (ironloop halt --now)");
            case AT -> now.isBefore(request.at().orElseThrow()) ? Optional.empty() : act("at " + request.at().get() + " as requested");
            case AFTER_NEXT_CHECKPOINT -> Optional.empty();
        };
    }

    /**
     * A rank reported a committed save; returns why the job must halt now, once, when it is the checkpoint a
     * request waited for.
     */
    Optional<String> saved(String level, long iteration, Instant time) {
        if (reason != null || request == null || request.mode() != HaltRequest.Mode.AFTER_NEXT_CHECKPOINT
                || time.isBefore(seenAt) || !SavedLevel.isJobCheckpoint(level)) {
            return Optional.empty();
        }
        return act("after the checkpoint at iteration " + iteration + " as requested");
    }

    /** Why the job was halted, once it was. */
    Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    private Optional<String> act(String why) {
        reason = why;
        return Optional.of(why);
    }

    private void poll(Path dir, Instant now) {
        HaltRequest found;
        try {
            found = HaltRequest.readFrom(dir).orElse(null);
            unreadable = null;
        } catch (IOException | IllegalArgumentException e) {
            if (!e.toString().equals(unreadable)) {
                log.warn("cannot read the halt request " + HaltRequest.file(dir) + ": " + e.getMessage() + "; ignoring it");
                unreadable = e.toString();
            }
            return;
        }
        if (found == null || found.equals(request)) {
            if (found == null && request != null) {
                log.info("the halt request in " + dir + " was withdrawn");
                request = null;
            }
            return;
        }
        request = found;
        seenAt = now;
        log.info("halt requested in " + HaltRequest.file(dir) + ": the job stops " + found.describe()
                + " (the ranks save and exit as on SIGTERM) and is not relaunched");
        timeline.supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.HALT_REQUESTED,
                fields("mode", found.mode().word(), "at", found.at().map(Instant::toString).orElse(null)));
    }
}
