package io.ironloop.launcher;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * One entry of a run's timeline: something a rank reported over its control connection, or something
 * the supervisor did or saw. Immutable.
 *
 * <p>Supervisor event types are the constants below; rank event types are whatever the ranks send through
 * {@code LauncherLink} ({@code plan}, {@code iteration}, {@code saved}, {@code restored},
 * {@code tasks-skipped}, …) with their JSON fields.
 *
 * @param time when the supervisor received or did it
 * @param source who emitted it
 * @param attempt the attempt (0 first) it belongs to
 * @param rank the rank it concerns, or {@link #NO_RANK}
 * @param pid that rank's process id, or {@link #NO_PID}
 * @param type the event type
 * @param fields the event's fields (JSON values: String, Integer/Long, Double, Boolean, List, Map, null)
 */
public record TimelineEvent(Instant time, Source source, int attempt, int rank, long pid, String type,
        Map<String, Object> fields) {

    /** Rank of an event about the whole job. */
    public static final int NO_RANK = -1;
    /** Pid of an event without a process. */
    public static final long NO_PID = -1;

    /** Supervisor: the job started; fields {@code job}, {@code ranks}, {@code restarts}, {@code control}. */
    public static final String JOB_STARTED = "job-started";
    /** Supervisor: an attempt started; field {@code attempt}. */
    public static final String ATTEMPT_STARTED = "attempt-started";
    /** Supervisor: a rank JVM was started. */
    public static final String RANK_STARTED = "rank-started";
    /** Supervisor: a rank authenticated on the control socket. */
    public static final String RANK_CONNECTED = "rank-connected";
    /** Supervisor: a rank exited; fields {@code status}, {@code signal} (when 128 + N). */
    public static final String RANK_EXITED = "rank-exited";
    /**
     * Supervisor: every rank of the attempt declared that it recovers online ({@code protection}), so a lost rank no
     * longer ends the attempt; fields {@code ranks}, {@code deadline_s} (how long the survivors have to report a
     * recovery).
     */
    public static final String ONLINE_PROTECTED = "online-protected";
    /**
     * Supervisor: a rank of an online-protected attempt exited non-zero and the others keep running; fields
     * {@code status}, {@code iteration}, {@code injected}, {@code deadline_s} (absent when the survivors had already
     * reported the recovery).
     */
    public static final String RANK_LOST = "rank-lost";
    /**
     * Supervisor: the online recovery of a loss failed — the survivors reported {@code recovery-impossible}, or
     * nobody reported within the deadline — so the attempt fails; field {@code reason}.
     */
    public static final String ONLINE_RECOVERY_FAILED = "online-recovery-failed";
    /** Supervisor: the first non-zero exit of an attempt; fields {@code status}, {@code iteration}. */
    public static final String FAILURE_DETECTED = "failure-detected";
    /** Supervisor: the remaining ranks are being stopped; fields {@code signal}, {@code reason}. */
    public static final String STOPPING = "stopping-ranks";
    /** Supervisor: ranks still alive after the grace period were killed; field {@code ranks}. */
    public static final String GRACE_EXPIRED = "grace-expired";
    /**
     * Supervisor: a rank found stopped (SIGSTOP, {@code T} in {@code /proc/PID/stat}) was killed with SIGKILL, as it
     * can neither save nor exit; fields {@code stopped_s} (how long it was seen stopped), {@code reason}.
     */
    public static final String STOPPED_RANK_KILLED = "stopped-rank-killed";
    /** Supervisor: a fault was injected; fields {@code fault}, {@code signal}, {@code iteration} or {@code after_s}. */
    public static final String FAULT_INJECTED = "fault-injected";
    /** Supervisor: the launcher received a signal; field {@code signal}. */
    public static final String SIGNAL_RECEIVED = "signal-received";
    /** Supervisor: a signal was forwarded to the live ranks; fields {@code signal}, {@code ranks}. */
    public static final String SIGNAL_FORWARDED = "signal-forwarded";
    /** Supervisor: the job will be relaunched; fields {@code next_attempt}, {@code delay_ms}. */
    public static final String RESTART_SCHEDULED = "restart-scheduled";
    /** Supervisor: restarts stopped because the same failure repeated; field {@code message}. */
    public static final String RESTART_STORM = "restart-storm";
    /** Supervisor: restarts stopped because a rank's error is deterministic; field {@code message}. */
    public static final String DETERMINISTIC_FAILURE = "deterministic-failure";
    /** Supervisor: a control connection was refused; fields {@code remote}, {@code reason}. */
    public static final String CONNECTION_REFUSED = "connection-refused";
    /** Supervisor: the run cannot do what was asked (e.g. a fault past the last iteration); field {@code message}. */
    public static final String USAGE_ERROR = "usage-error";
    /** Supervisor: a halt request ({@code ironloop halt}) was found; fields {@code mode}, {@code at}. */
    public static final String HALT_REQUESTED = "halt-requested";
    /** Supervisor: the ranks are stopped for a halt request; fields {@code reason}, {@code ranks}. */
    public static final String HALTING = "halting";
    /** Supervisor: the job ended; fields {@code status}, {@code attempts}, {@code relaunches}, {@code online_recoveries}. */
    public static final String JOB_FINISHED = "job-finished";

    /** Who emitted an event. */
    public enum Source {
        /** The launcher's supervisor. */
        SUPERVISOR,
        /** A rank, through its control connection. */
        RANK
    }

    /**
     * Supervisor, with site protection ({@code run --fake-sites}): a protector process started; fields {@code site},
     * {@code node} (a node protector's), {@code pid}, {@code address}.
     */
    public static final String SITE_PROTECTOR_STARTED = "site-protector-started";
    /**
     * Supervisor, with site protection: at the job's end, the table one protector answered; the fields of a
     * {@link io.ironloop.sites.SiteEvent.TableChanged} there ({@code site}, {@code table_version}, {@code ranks}) and a
     * node protector's {@code node}.
     */
    public static final String SITE_TABLE_ASKED = "site-table-asked";

    /**
     * The type of a site protector's event in the timeline (docs/sites.md): {@code site-} and the event's type in
     * kebab case, with its {@link io.ironloop.sites.SiteEvent#fields()} as the fields.
     *
     * @param type a site event's record, for example {@code SiteEvent.Declared.class} ({@code site-declared}) or
     *     {@code SiteEvent.FailedOver.class} ({@code site-failed-over})
     * @return the timeline type
     */
    public static String ofSite(Class<? extends io.ironloop.sites.SiteEvent> type) {
        return ofSite(type.getSimpleName());
    }

    /** {@link #ofSite(Class)} from the type a protector process prints ({@code FailedOver}). */
    static String ofSite(String siteEventType) {
        return "site-" + siteEventType.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * Copies the fields.
     */
    public TimelineEvent {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A numeric field as a double, when present and numeric. */
    public java.util.OptionalDouble doubleField(String name) {
        return fields.get(name) instanceof Number n ? java.util.OptionalDouble.of(n.doubleValue()) : java.util.OptionalDouble.empty();
    }

    /** A numeric field as a long, when present and numeric. */
    public OptionalLong longField(String name) {
        return fields.get(name) instanceof Number n ? OptionalLong.of(n.longValue()) : OptionalLong.empty();
    }

    /**
     * One line: UTC time, offset from {@code start}, attempt, rank and pid, source, type and fields.
     *
     * @param start the job's start, for the offset
     * @return the line, without a line terminator
     */
    public String format(Instant start) {
        double offset = Duration.between(start, time).toNanos() / 1e9;
        String who = rank == NO_RANK ? "" : "rank " + rank;
        String process = pid == NO_PID ? "" : "pid " + pid;
        String body = fields.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
        return String.format(Locale.ROOT, "%s %+9.3fs  attempt %d  %-8s %-10s %-12s %-17s %s", time, offset, attempt,
                who, process, source == Source.RANK ? "[rank]" : "[supervisor]", type, body).stripTrailing();
    }
}
