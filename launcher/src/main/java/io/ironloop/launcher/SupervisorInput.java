package io.ironloop.launcher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * What reaches the supervisor thread, from process-exit callbacks, control connections and signal
 * handlers. The supervisor handles them one at a time, in order, so its state needs no locking.
 */
sealed interface SupervisorInput {

    /** When it happened. */
    Instant time();

    /** A rank's JVM exited. */
    record RankExited(int attempt, int rank, long pid, int status, Instant time) implements SupervisorInput {
    }

    /** A connection authenticated with the job secret and claims to be a rank; not yet accepted. */
    record RankHello(RankConnection connection, Instant time) implements SupervisorInput {
    }

    /** An event from an authenticated connection. */
    record RankMessage(RankConnection connection, ObjectNode message, Instant time) implements SupervisorInput {
    }

    /** The control server refused a connection (already logged). */
    record ConnectionRefused(String remote, String reason, Instant time) implements SupervisorInput {
    }

    /**
     * A site protector's report ({@link SiteProtectors}): its start, one of its events, or its exit.
     *
     * @param site the protector's site
     * @param type the timeline event type ({@code site-declared}, {@code site-recovered}, ...)
     * @param fields the event's fields
     */
    record SiteReport(String site, String type, java.util.Map<String, Object> fields, Instant time) implements SupervisorInput {
    }

    /** The launcher process received a signal. */
    record SignalDelivered(LauncherSignal signal, Instant time) implements SupervisorInput {
    }
}
