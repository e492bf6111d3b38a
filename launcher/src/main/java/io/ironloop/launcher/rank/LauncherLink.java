package io.ironloop.launcher.rank;

import io.ironloop.group.launch.LaunchEnvironment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reports a rank's progress to the local launcher's supervisor, which records it in its timeline, injects
 * faults at reported iterations ({@code --fail RANK@ITER}) and recognises restart storms from it.
 *
 * <p>A rank started by {@code ironloop run} has one link, made by {@link RankBootstrap} when it connects;
 * the runtime reaches it only through its event stream ({@link LauncherEvents}, subscribed by
 * {@link LauncherSubscriberProvider}). Thread-safe; events are a few hundred bytes sent synchronously over loopback. A send that
 * fails is reported once on standard error and further events are dropped (the rank halts soon after,
 * because a broken control connection means the launcher is gone).
 *
 * <p>Standard event types, with their fields (add others freely; {@code type} is reserved):
 * <ul>
 *   <li>{@code plan}: {@code iterations} — the last iteration number the run will report</li>
 *   <li>{@code iteration}: {@code iteration} — the rank starts this iteration</li>
 *   <li>{@code saved}: {@code iteration}, {@code level}, {@code blocking_s}, {@code bytes}, {@code saves} (when not
 *       1) — checkpoints were committed ({@code level}: {@code global}, {@code local}, {@code memory} for in-memory
 *       snapshots with their partner copies, …), with what they cost ({@link #saved(SaveReport)})</li>
 *   <li>{@code restored}: {@code iteration} — state was restored; the loop resumes there</li>
 *   <li>{@code tasks-skipped}: {@code count} — finished tasks skipped after a restart</li>
 *   <li>{@code error}: {@code exception}, {@code message}, {@code configuration} — the rank ends with an
 *       exception ({@link #error})</li>
 *   <li>{@value #DETECTED}: {@code failed} — world ranks this rank saw fail ({@link #detected})</li>
 * </ul>
 *
 * <p>Online recovery. A rank whose runtime recovers from lost ranks in the running job sends
 * {@value #PROTECTION} {@code {"online": true}} right after it connects ({@link #protection}). Once every rank
 * of the attempt did, the launcher no longer ends the attempt when a rank exits: it waits for the survivors'
 * report, sent by rank 0 of the shrunk group only:
 * <ul>
 *   <li>{@value #SHRUNK}: {@code lost} (world ranks), {@code size} (of the new group), {@code shrink_s}
 *       ({@link #shrunk})</li>
 *   <li>{@value #RECOVERED}: {@code lost}, {@code iteration}, {@code source} ({@code memory} or {@code disk}),
 *       {@code spares}, {@code detect_s}, {@code shrink_s}, {@code restore_s}, {@code rebalance_s}
 *       ({@link #recovered}) — the job continues</li>
 *   <li>{@value #RECOVERY_IMPOSSIBLE}: {@code lost}, {@code reason} ({@link #recoveryImpossible}) — the survivors
 *       then exit non-zero and the launcher relaunches the job from disk</li>
 * </ul>
 * Without either report within the group's failure-detection time plus 30 s of a loss, the launcher stops
 * the attempt and relaunches it. Durations are seconds ({@code double}).
 */
public final class LauncherLink {
    /** Event type: whether this rank's job recovers online from lost ranks; field {@code online}. */
    public static final String PROTECTION = "protection";
    /** Event type: world ranks this rank saw fail; field {@code failed}. */
    public static final String DETECTED = "detected";
    /** Event type: the survivors formed a smaller group; fields {@code lost}, {@code size}, {@code shrink_s}. */
    public static final String SHRUNK = "shrunk";
    /** Event type: the survivors recovered the lost ranks' state and continue; fields as {@link RecoveryReport}. */
    public static final String RECOVERED = "recovered";
    /** Event type: the survivors cannot recover online and will exit; fields {@code lost}, {@code reason}. */
    public static final String RECOVERY_IMPOSSIBLE = "recovery-impossible";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LauncherConnection connection;
    /** Where a {@link #recording} link hands its messages; null on a real or no-op link. */
    private final Consumer<String> recorder;

    private LauncherLink(LauncherConnection connection, Consumer<String> recorder) {
        this.connection = connection;
        this.recorder = recorder;
    }

    /**
     * A link that hands every message, as the text of one JSON object (with its {@code type}), to
     * {@code sink} instead of a launcher; {@link #iteration} never waits. For tests that check what a rank
     * reports, and for components that take their link by injection.
     *
     * @param sink receives the messages, on the sending thread; must be thread-safe
     */
    public static LauncherLink recording(Consumer<String> sink) {
        return new LauncherLink(null, Objects.requireNonNull(sink, "sink"));
    }

    /** The link over a rank's open control connection. */
    static LauncherLink over(LauncherConnection connection) {
        return new LauncherLink(Objects.requireNonNull(connection, "connection"), null);
    }

    /** Whether events go somewhere: to the launcher over an open control connection, or to a {@link #recording} sink. */
    public boolean isActive() {
        return recorder != null || connection != null && connection.isOpen();
    }

    private boolean silent() {
        return connection == null && recorder == null;
    }

    private void send(ObjectNode message) {
        if (connection != null) {
            connection.send(message);
        } else if (recorder != null) {
            recorder.accept(message.toString());
        }
    }

    /** The launch environment, when this process runs under the launcher. */
    public Optional<LaunchEnvironment> environment() {
        return connection == null ? Optional.empty() : Optional.of(connection.environment());
    }

    /**
     * Sends an event.
     *
     * @param type the event type (non-blank)
     * @param fields the event's fields: strings, numbers, booleans, lists and maps of those; not
     *     {@code type}
     * @throws IllegalArgumentException if the type is blank or the fields contain {@code type}
     */
    public void event(String type, Map<String, ?> fields) {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("event type must not be blank");
        }
        if (fields.containsKey("type")) {
            throw new IllegalArgumentException("event field name 'type' is reserved");
        }
        if (silent()) {
            return;
        }
        ObjectNode node = ControlProtocol.message(type);
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            JsonNode value = JSON.valueToTree(e.getValue());
            node.set(e.getKey(), value);
        }
        send(node);
    }

    /**
     * Declares the last iteration number this run will report, so the launcher can reject fault
     * injection points past it.
     *
     * @param lastIteration the last iteration number
     */
    public void plan(long lastIteration) {
        send(ControlProtocol.message("plan").put("iterations", lastIteration));
    }

    /**
     * Reports that the rank starts an iteration. When the launcher has a fault to inject at this
     * iteration the call waits for it (the rank is then killed here); otherwise it returns at once.
     *
     * @param iteration the iteration number, as the application counts
     */
    public void iteration(long iteration) {
        if (connection != null) {
            connection.iteration(ControlProtocol.message("iteration").put("iteration", iteration), iteration);
        } else if (recorder != null) {
            send(ControlProtocol.message("iteration").put("iteration", iteration));
        }
    }

    /**
     * Reports a committed checkpoint whose cost this rank does not know (an application reporting its own saves).
     *
     * @param iteration the iteration the checkpoint holds
     * @param level the storage level or kind, e.g. {@code global}, {@code local}
     */
    public void saved(long iteration, String level) {
        send(ControlProtocol.message("saved").put("iteration", iteration).put("level", level));
    }

    /**
     * Reports committed checkpoints with what they cost: fields {@code iteration}, {@code level}, {@code blocking_s}
     * (seconds the application's thread waited, summed), {@code bytes} (what the level holds of them, summed), and
     * {@code saves} when the report stands for more than one save. The launcher's dashboard and metrics show the
     * figures level by level.
     *
     * @param report the saves
     */
    public void saved(SaveReport report) {
        ObjectNode node = ControlProtocol.message("saved").put("iteration", report.iteration()).put("level", report.level())
                .put("blocking_s", seconds(report.blocking())).put("bytes", report.bytes());
        send(report.saves() == 1 ? node : node.put("saves", report.saves()));
    }

    /**
     * Reports that state was restored and the loop resumes at an iteration.
     *
     * @param iteration the iteration the run resumes at
     */
    public void restored(long iteration) {
        send(ControlProtocol.message("restored").put("iteration", iteration));
    }

    /** Longest {@code message} an {@code error} event carries, in characters. */
    static final int MAX_ERROR_CHARS = 4000;

    /**
     * Reports that this rank ends with an exception, so the launcher names it as the cause of the failure
     * (rather than the ranks that merely saw it leave) and can tell a deterministic error from one worth a
     * restart. Fields: {@code exception} (class name), {@code message} (its message and its causes'), and
     * {@code configuration} (true for a {@link io.ironloop.ConfigurationException}: restarting cannot help).
     *
     * @param error what the application threw
     */
    public void error(Throwable error) {
        if (silent()) {
            return;
        }
        StringBuilder message = new StringBuilder(String.valueOf(error.getMessage()));
        boolean configuration = error instanceof io.ironloop.ConfigurationException;
        for (Throwable c = error.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() == null || message.indexOf(c.getMessage()) < 0) { // often already quoted by its wrapper
                message.append("; caused by ").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            }
            configuration |= c instanceof io.ironloop.ConfigurationException;
        }
        String text = message.length() > MAX_ERROR_CHARS ? message.substring(0, MAX_ERROR_CHARS - 3) + "..." : message.toString();
        send(ControlProtocol.message("error").put("exception", error.getClass().getName()).put("message", text)
                .put("configuration", configuration));
    }

    /**
     * Reports finished tasks skipped after a restart.
     *
     * @param count how many tasks were skipped
     */
    public void tasksSkipped(long count) {
        send(ControlProtocol.message("tasks-skipped").put("count", count));
    }

    /**
     * Declares whether this rank's job recovers online from lost ranks. Send it once, right after the
     * process starts (before the first iteration): only when every rank of the attempt declared
     * {@code online}, a rank's exit no longer ends the attempt.
     *
     * @param online whether the survivors of a loss shrink the group and continue
     */
    public void protection(boolean online) {
        send(ControlProtocol.message(PROTECTION).put("online", online));
    }

    /**
     * Reports world ranks this rank saw fail; the launcher kills those that are stopped (SIGSTOP), since they
     * are hung rather than slow.
     *
     * @param failed the world ranks
     */
    public void detected(Collection<Integer> failed) {
        ObjectNode node = ControlProtocol.message(DETECTED);
        ranks(node, "failed", failed);
        send(node);
    }

    /**
     * Reports that the survivors of a loss formed a smaller group. Sent by rank 0 of the new group only.
     *
     * @param lost the world ranks lost
     * @param size the size of the new group
     * @param shrink how long the shrink took
     */
    public void shrunk(Collection<Integer> lost, int size, Duration shrink) {
        ObjectNode node = ControlProtocol.message(SHRUNK);
        ranks(node, "lost", lost);
        send(node.put("size", size).put("shrink_s", seconds(shrink)));
    }

    /**
     * Reports that the survivors recovered the lost ranks' state and continue in the same job. Sent by rank 0
     * of the shrunk group only, once per recovery; the launcher counts these as online recoveries.
     *
     * @param report what was lost, where it was restored from, and how long each phase took
     */
    public void recovered(RecoveryReport report) {
        ObjectNode node = ControlProtocol.message(RECOVERED);
        ranks(node, "lost", report.lost());
        send(node.put("iteration", report.iteration()).put("source", report.source().wireName())
                .put("spares", report.spares()).put("detect_s", seconds(report.detect()))
                .put("shrink_s", seconds(report.shrink())).put("restore_s", seconds(report.restore()))
                .put("rebalance_s", seconds(report.rebalance())));
    }

    /**
     * Reports that the survivors cannot recover from a loss online (a rank and every holder of its copy
     * lost, say) and will exit non-zero, so that the launcher relaunches the job from disk. Sent by rank 0 of
     * the shrunk group only.
     *
     * @param lost the world ranks lost
     * @param reason why, for the operator
     */
    public void recoveryImpossible(Collection<Integer> lost, String reason) {
        ObjectNode node = ControlProtocol.message(RECOVERY_IMPOSSIBLE);
        ranks(node, "lost", lost);
        send(node.put("reason", String.valueOf(reason)));
    }

    private static void ranks(ObjectNode node, String field, Collection<Integer> ranks) {
        ArrayNode array = node.putArray(field);
        ranks.forEach(array::add);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
