package io.ironloop.runtime.internal.metrics;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.event.RuntimeEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * One rank's metrics and flight-recorder events, fed by the runtime's event stream: the one place where
 * metric names and JFR events are chosen. Every meter carries the tags {@code job} and {@code rank} (the world
 * rank). With {@code METRICS_PORT} set, the rank serves them in Prometheus' text format at
 * {@code http://HOST:PORT/metrics}, PORT being {@code METRICS_PORT} plus the world rank (0: a port the kernel
 * chooses, logged).
 *
 * <table>
 *   <caption>metrics (Prometheus names)</caption>
 *   <tr><th>metric</th><th>tags</th><th>from</th></tr>
 *   <tr><td>{@code ironloop_checkpoint_duration_seconds} (timer: {@code _count}, {@code _sum}, {@code _max})</td>
 *       <td>{@code kind}, {@code level}</td><td>{@link RuntimeEvent.Saved}: from the snapshot to the commit on the level</td></tr>
 *   <tr><td>{@code ironloop_checkpoint_bytes_total}</td><td>{@code kind}, {@code level}</td><td>bytes the level holds of
 *       the saves committed on it ({@link RuntimeEvent.Saved#bytes})</td></tr>
 *   <tr><td>{@code ironloop_blocking_seconds} (timer)</td><td>{@code kind}, {@code phase}: {@code capture}
 *       ({@link RuntimeEvent.Snapshotted#blocking}), {@code handshake} ({@link RuntimeEvent.Handshake#waited})</td>
 *       <td>what saves cost the application's thread</td></tr>
 *   <tr><td>{@code ironloop_recovery_seconds} (timer: its {@code _count} is the recovery count)</td><td>{@code source}</td>
 *       <td>{@link RuntimeEvent.RecoveredOnline}: detection to resumption (the sum of the phases)</td></tr>
 *   <tr><td>{@code ironloop_recovery_phase_seconds} (timer)</td><td>{@code phase}: {@code shrink}, {@code restore},
 *       {@code rebalance}</td><td>{@link RuntimeEvent.RecoveredOnline}</td></tr>
 *   <tr><td>{@code ironloop_detection_seconds} (timer)</td><td></td><td>{@link RuntimeEvent.RecoveredOnline#detect}:
 *       from this rank's detection of the failure to the start of the shrink</td></tr>
 *   <tr><td>{@code ironloop_recovery_impossible_total}</td><td></td><td>{@link RuntimeEvent.RecoveryImpossible}</td></tr>
 *   <tr><td>{@code ironloop_failed_ranks_total}</td><td></td><td>{@link RuntimeEvent.FailureDetected}: ranks found failed</td></tr>
 *   <tr><td>{@code ironloop_group_size}</td><td></td><td>ranks in the group ({@link RuntimeEvent.GroupShrunk})</td></tr>
 *   <tr><td>{@code ironloop_restores_total}</td><td>{@code kind}</td><td>{@link RuntimeEvent.Restored}</td></tr>
 *   <tr><td>{@code ironloop_triggers_total}</td><td>{@code cause}: {@code SignalReceived}, {@code PreemptionNoticed}</td><td>{@link RuntimeEvent.TriggerFired}</td></tr>
 *   <tr><td>{@code ironloop_iteration_committed}</td><td></td><td>the newest iteration committed on any level
 *       ({@link RuntimeEvent.Saved}, a kept {@link RuntimeEvent.Handshake}); after an online recovery, the
 *       iteration resumed at; -1 before the first</td></tr>
 * </table>
 *
 * <p>The JFR events ({@code io.ironloop.Checkpoint}, {@code .Restore}, {@code .Recovery}, {@code .Trigger},
 * {@code .Membership}) are committed with or without {@code METRICS_PORT} and cost nothing when no recording is
 * running; without {@code METRICS_PORT} no meters are kept.
 *
 * <p>Thread-safe: events arrive on the application's, a trigger's or a background writer's thread.
 */
public final class RankMetrics implements Consumer<RuntimeEvent>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RankMetrics.class);
    /** The path of the Prometheus endpoint. */
    public static final String PATH = PrometheusEndpoint.PATH;
    private static final String BLOCKING = "time the application's thread was blocked by saves";

    /** Null without {@code METRICS_PORT}: nobody could read the meters, so none are kept (JFR events are). */
    private final PrometheusMeterRegistry registry;
    private final AtomicLong committedIteration = new AtomicLong(-1);
    private final AtomicLong groupSize = new AtomicLong();
    private PrometheusEndpoint endpoint;

    private RankMetrics() {
        this.registry = null;
    }

    /**
     * Meters and flight-recorder events, without an endpoint (tests; {@link #start} adds the endpoint).
     *
     * @param jobId the job's id, tag {@code job}
     * @param worldRank the rank at launch, tag {@code rank}
     * @param groupSize the group's size at start
     */
    public RankMetrics(String jobId, int worldRank, int groupSize) {
        this.registry = PrometheusEndpoint.registry("job", Objects.requireNonNull(jobId, "jobId"), "rank", Integer.toString(worldRank));
        this.groupSize.set(groupSize);
        Gauge.builder("ironloop.iteration.committed", committedIteration, AtomicLong::get)
                .description("the newest iteration committed on any level").register(registry);
        Gauge.builder("ironloop.group.size", this.groupSize, AtomicLong::get).description("ranks in the group").register(registry);
    }

    /**
     * This rank's metrics, served when {@code METRICS_PORT} is set; without it only the flight-recorder events (the
     * meters would cost start-up time and memory that nobody reads).
     *
     * @param p the rank's parameters ({@code METRICS_PORT})
     * @param jobId the job's id, tag {@code job}
     * @param worldRank the rank at launch, tag {@code rank}; the endpoint's port is {@code METRICS_PORT} plus it
     * @param groupSize the group's size at start
     * @throws ConfigurationException if the port is taken or cannot be bound
     */
    public static RankMetrics start(Parameters p, String jobId, int worldRank, int groupSize) {
        Optional<Long> base = p.find(RuntimeKeys.METRICS_PORT);
        if (base.isEmpty()) {
            return new RankMetrics();
        }
        long port = base.get() == 0 ? 0 : base.get() + worldRank;
        if (port > 65535) {
            throw new ConfigurationException("METRICS_PORT " + base.get() + " plus world rank " + worldRank + " is " + port
                    + ", above 65535: choose a METRICS_PORT below " + (65536 - groupSize) + ", or 0 for ports the kernel chooses");
        }
        RankMetrics m = new RankMetrics(jobId, worldRank, groupSize);
        m.endpoint = PrometheusEndpoint.serve(m.registry, (int) port, "METRICS_PORT plus the world rank");
        LOG.info("world rank {}: metrics at {} (every interface)", worldRank, m.endpoint.url());
        return m;
    }

    /** Where the endpoint listens, if it does. */
    public Optional<InetSocketAddress> address() {
        return Optional.ofNullable(endpoint).map(PrometheusEndpoint::address);
    }

    /**
     * The metrics in Prometheus' text format, as the endpoint serves them.
     *
     * @throws IllegalStateException without meters ({@code METRICS_PORT} unset)
     */
    public String scrape() {
        if (registry == null) {
            throw new IllegalStateException("no meters are kept without METRICS_PORT");
        }
        return registry.scrape();
    }

    @Override
    public void accept(RuntimeEvent event) {
        if (registry != null) {
            meter(event);
        }
        flight(event);
    }

    /** Records {@code event} in the meters. */
    private void meter(RuntimeEvent event) {
        if (event instanceof RuntimeEvent.Snapshotted e) {
            timer("ironloop.blocking", BLOCKING, "kind", kind(e.kind()), "phase", "capture").record(e.blocking());
        } else if (event instanceof RuntimeEvent.Handshake e) {
            timer("ironloop.blocking", BLOCKING, "kind", kind(RuntimeEvent.StateKind.BLOCKS), "phase", "handshake").record(e.waited());
            if (e.committed()) {
                committedIteration.accumulateAndGet(e.iteration(), Math::max);
            }
        } else if (event instanceof RuntimeEvent.Saved e) {
            Tags tags = Tags.of("kind", kind(e.kind()), "level", e.level());
            Timer.builder("ironloop.checkpoint.duration").description("from a save's snapshot to its commit on a level").tags(tags)
                    .register(registry).record(e.sinceSnapshot());
            Counter.builder("ironloop.checkpoint.bytes").baseUnit("bytes").description("bytes of the saves committed on a level")
                    .tags(tags).register(registry).increment(e.bytes());
            committedIteration.accumulateAndGet(e.iteration(), Math::max);
        } else if (event instanceof RuntimeEvent.Restored e) {
            Counter.builder("ironloop.restores").description("restores of saved state").tag("kind", kind(e.kind())).register(registry)
                    .increment();
        } else if (event instanceof RuntimeEvent.RecoveredOnline e) {
            Duration detect = orZero(e.detect());
            Duration shrink = orZero(e.shrink());
            Duration restore = orZero(e.restore());
            Duration rebalance = orZero(e.rebalance());
            Timer.builder("ironloop.recovery").description("online recoveries, from detection to resumption").tag("source",
                    source(e.source())).register(registry).record(detect.plus(shrink).plus(restore).plus(rebalance));
            timer("ironloop.detection", "from this rank's detection of a failure to the start of the shrink").record(detect);
            String phases = "the phases of online recoveries";
            timer("ironloop.recovery.phase", phases, "phase", "shrink").record(shrink);
            timer("ironloop.recovery.phase", phases, "phase", "restore").record(restore);
            timer("ironloop.recovery.phase", phases, "phase", "rebalance").record(rebalance);
            committedIteration.set(e.iteration()); // a recovery from disk rolls back
        } else if (event instanceof RuntimeEvent.RecoveryImpossible) {
            Counter.builder("ironloop.recovery.impossible").description("failures no surviving copy could recover").register(registry)
                    .increment();
        } else if (event instanceof RuntimeEvent.FailureDetected e) {
            Counter.builder("ironloop.failed.ranks").description("ranks found failed").register(registry).increment(e.worldRanks().size());
        } else if (event instanceof RuntimeEvent.GroupShrunk e) {
            groupSize.set(e.newSize());
        } else if (event instanceof RuntimeEvent.TriggerFired e) {
            Counter.builder("ironloop.triggers").description("termination signals and preemption notices").tag("cause", causeKind(e.cause()))
                    .register(registry).increment();
        }
    }

    /** Commits {@code event}'s flight-recorder event, if a recording wants it. */
    private void flight(RuntimeEvent event) {
        if (event instanceof RuntimeEvent.Snapshotted e) {
            checkpoint("snapshot", e.kind(), e.iteration(), "", e.bytes(), e.blocking(), false);
        } else if (event instanceof RuntimeEvent.Handshake e) {
            checkpoint("handshake", RuntimeEvent.StateKind.BLOCKS, e.iteration(), "", 0, e.waited(), e.committed());
        } else if (event instanceof RuntimeEvent.Saved e) {
            checkpoint("committed", e.kind(), e.iteration(), e.level(), e.bytes(), e.sinceSnapshot(), true);
        } else if (event instanceof RuntimeEvent.Restored e) {
            FlightEvents.Restore f = new FlightEvents.Restore();
            if (f.shouldCommit()) {
                f.kind = kind(e.kind());
                f.iteration = e.iteration();
                f.commit();
            }
        } else if (event instanceof RuntimeEvent.RecoveredOnline e) {
            FlightEvents.Recovery f = new FlightEvents.Recovery();
            if (f.shouldCommit()) {
                f.outcome = "recovered";
                f.lost = ranks(e.lostWorldRanks());
                f.iteration = e.iteration();
                f.source = source(e.source());
                f.detect = orZero(e.detect()).toNanos();
                f.shrink = orZero(e.shrink()).toNanos();
                f.restore = orZero(e.restore()).toNanos();
                f.rebalance = orZero(e.rebalance()).toNanos();
                f.commit();
            }
        } else if (event instanceof RuntimeEvent.RecoveryImpossible e) {
            FlightEvents.Recovery f = new FlightEvents.Recovery();
            if (f.shouldCommit()) {
                f.outcome = "impossible";
                f.lost = ranks(e.lostWorldRanks());
                f.reason = e.reason();
                f.commit();
            }
        } else if (event instanceof RuntimeEvent.FailureDetected e) {
            membership("detected", e.worldRanks(), 0, 0, Duration.ZERO);
        } else if (event instanceof RuntimeEvent.GroupShrunk e) {
            membership("shrunk", e.lostWorldRanks(), e.oldSize(), e.newSize(), e.took());
        } else if (event instanceof RuntimeEvent.TriggerFired e) {
            trigger("fired", e.cause(), e.deadline());
        } else if (event instanceof RuntimeEvent.TriggerSaved e) {
            trigger("saved", e.cause(), null);
        }
    }

    private Timer timer(String name, String description, String... tags) {
        return Timer.builder(name).description(description).tags(tags).register(registry);
    }

    private static void checkpoint(String stage, RuntimeEvent.StateKind kind, long iteration, String level, long bytes, Duration took,
            boolean committed) {
        FlightEvents.Checkpoint f = new FlightEvents.Checkpoint();
        if (f.shouldCommit()) {
            f.stage = stage;
            f.kind = kind(kind);
            f.iteration = iteration;
            f.level = level;
            f.bytes = bytes;
            f.took = took.toNanos();
            f.committed = committed;
            f.commit();
        }
    }

    private static void membership(String change, Set<Integer> ranks, int oldSize, int newSize, Duration took) {
        FlightEvents.Membership f = new FlightEvents.Membership();
        if (f.shouldCommit()) {
            f.change = change;
            f.ranks = ranks(ranks);
            f.oldSize = oldSize;
            f.newSize = newSize;
            f.took = took.toNanos();
            f.commit();
        }
    }

    private static void trigger(String stage, String cause, String deadline) {
        FlightEvents.Trigger f = new FlightEvents.Trigger();
        if (f.shouldCommit()) {
            f.stage = stage;
            f.cause = cause;
            f.deadline = deadline;
            f.commit();
        }
    }

    /** A cause's kind ({@code SignalReceived}, {@code PreemptionNoticed}): a label of few values, unlike its details. */
    static String causeKind(String cause) {
        int bracket = cause.indexOf('[');
        return bracket < 0 ? cause : cause.substring(0, bracket);
    }

    private static String source(RuntimeEvent.RecoverySource source) {
        return source.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String kind(RuntimeEvent.StateKind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String ranks(Set<Integer> ranks) {
        return ranks.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static Duration orZero(Duration d) {
        return d == null ? Duration.ZERO : d;
    }

    /** Stops the endpoint (if it runs); the meters stay readable. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
