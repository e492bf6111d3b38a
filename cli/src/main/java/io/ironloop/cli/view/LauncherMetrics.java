package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import io.ironloop.launcher.rank.SavedLevel;
import io.ironloop.runtime.internal.metrics.PrometheusEndpoint;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The launcher's metrics, from its timeline events, served to Prometheus by {@code ironloop run --metrics-port}
 * through the same {@link PrometheusEndpoint} as the ranks' ({@code METRICS_PORT}). Every meter carries the tag
 * {@code job}; they appear with the job's {@code job-started} event.
 *
 * <table>
 *   <caption>metrics (Prometheus names)</caption>
 *   <tr><th>metric</th><th>from</th></tr>
 *   <tr><td>{@code ironloop_launcher_attempts_total}</td><td>{@code attempt-started}</td></tr>
 *   <tr><td>{@code ironloop_launcher_relaunches_total}</td><td>{@code attempt-started} of attempt 1, 2, …</td></tr>
 *   <tr><td>{@code ironloop_launcher_rank_failures_total}</td><td>the failed ranks: the supervisor's {@code failure-detected}
 *       (the first non-zero exit of an attempt; the other ranks' exits it causes are not failures), {@code rank-lost}</td></tr>
 *   <tr><td>{@code ironloop_launcher_online_recoveries_total}</td><td>the survivors' {@code recovered} (one per recovery)</td></tr>
 *   <tr><td>{@code ironloop_launcher_ranks_alive}</td><td>rank JVMs started and not yet exited</td></tr>
 *   <tr><td>{@code ironloop_launcher_iteration_committed}</td><td>the newest iteration a rank reported {@code saved}
 *       (global state or a block loop's disk line; local state and in-memory snapshots not counted); -1 before the first</td></tr>
 *   <tr><td>{@code ironloop_launcher_iteration}</td><td>the newest iteration a rank reported reaching in the current attempt</td></tr>
 *   <tr><td>{@code ironloop_launcher_checkpoint_saves_total}, tag {@code level}</td><td>saves the ranks reported on the level
 *       ({@code saved})</td></tr>
 *   <tr><td>{@code ironloop_launcher_checkpoint_bytes_total}, tag {@code level}</td><td>bytes the level holds of them</td></tr>
 *   <tr><td>{@code ironloop_launcher_checkpoint_blocking_seconds_total}, tag {@code level}</td><td>the time they blocked the
 *       application, every rank summed</td></tr>
 *   <tr><td>{@code ironloop_launcher_checkpoint_overhead}, tag {@code level}</td><td>that time over the elapsed time since the
 *       job started, per rank (the dashboard's overhead)</td></tr>
 * </table>
 * The per-level figures are those of the dashboard ({@link LevelCosts}); saves that came without their cost count as
 * saves only.
 *
 * <p>Thread-safe: events arrive on the supervisor thread, scrapes on the endpoint's.
 */
public final class LauncherMetrics implements Consumer<TimelineEvent>, AutoCloseable {
    private final PrometheusMeterRegistry registry = PrometheusEndpoint.registry();
    private final AtomicLong alive = new AtomicLong();
    private final AtomicLong committed = new AtomicLong(-1);
    private final AtomicLong iteration = new AtomicLong(-1);
    private final LevelCosts levels = new LevelCosts();
    private final Clock clock;
    private String job;
    private Instant started;
    private Instant finished;
    private int ranks;
    private PrometheusEndpoint endpoint;
    private Counter attempts;
    private Counter relaunches;
    private Counter failures;
    private Counter recoveries;

    /** Meters without an endpoint (tests read {@link #scrape()}), the overhead's "now" from {@code clock}. */
    LauncherMetrics(Clock clock) {
        this.clock = clock;
    }

    /**
     * Meters served at {@code http://HOST:PORT/metrics}.
     *
     * @param port the port on every interface, 0 for one the kernel chooses
     * @return the metrics, to pass the launcher's events to
     * @throws io.ironloop.ConfigurationException if the port is taken
     */
    public static LauncherMetrics serve(int port) {
        LauncherMetrics m = new LauncherMetrics(Clock.systemUTC());
        m.endpoint = PrometheusEndpoint.serve(m.registry, port, "--metrics-port");
        return m;
    }

    /** Where the endpoint listens. */
    public InetSocketAddress address() {
        return endpoint.address();
    }

    /** An address to scrape the endpoint at, for the log ({@link PrometheusEndpoint#url()}). */
    public String url() {
        return endpoint.url();
    }

    /** The metrics in Prometheus' text format, as the endpoint serves them. */
    String scrape() {
        return registry.scrape();
    }

    @Override
    public synchronized void accept(TimelineEvent e) {
        if (TimelineEvent.JOB_STARTED.equals(e.type())) {
            register(String.valueOf(e.fields().get("job")));
            started = e.time();
            ranks = (int) e.longField("ranks").orElse(0);
        }
        if (attempts == null) {
            return; // no job-started seen: nothing to tag the meters with
        }
        switch (e.type()) {
            case TimelineEvent.ATTEMPT_STARTED -> {
                attempts.increment();
                if (e.attempt() > 0) {
                    relaunches.increment();
                }
                iteration.set(-1);
            }
            case TimelineEvent.RANK_STARTED -> alive.incrementAndGet();
            case TimelineEvent.RANK_EXITED -> alive.decrementAndGet();
            case TimelineEvent.FAILURE_DETECTED, TimelineEvent.RANK_LOST -> failures.increment();
            case TimelineEvent.JOB_FINISHED -> finished = e.time();
            case "recovered" -> recoveries.increment();
            case "iteration" -> iteration.accumulateAndGet(e.longField("iteration").orElse(-1), Math::max);
            case "saved" -> {
                Object level = e.fields().get("level");
                if (SavedLevel.isJobCheckpoint(level)) {
                    committed.accumulateAndGet(e.longField("iteration").orElse(-1), Math::max);
                }
                boolean first = !levels.levels().containsKey(String.valueOf(level));
                LevelCosts.Level l = levels.add(e);
                if (first) {
                    register(String.valueOf(level), l);
                }
            }
            default -> {
                // not measured
            }
        }
    }

    private void register(String job) {
        if (attempts != null) {
            return;
        }
        this.job = job;
        attempts = Counter.builder("ironloop.launcher.attempts").description("attempts started").tag("job", job).register(registry);
        relaunches = Counter.builder("ironloop.launcher.relaunches").description("relaunches of the job after a failed attempt")
                .tag("job", job).register(registry);
        failures = Counter.builder("ironloop.launcher.rank.failures").description("rank JVMs that failed (non-zero exit, lost)")
                .tag("job", job).register(registry);
        recoveries = Counter.builder("ironloop.launcher.online.recoveries").description("online recoveries by the survivors")
                .tag("job", job).register(registry);
        Gauge.builder("ironloop.launcher.ranks.alive", alive, AtomicLong::get).description("rank JVMs running")
                .tag("job", job).register(registry);
        Gauge.builder("ironloop.launcher.iteration.committed", committed, AtomicLong::get)
                .description("the newest iteration saved (global state or disk line)").tag("job", job).register(registry);
        Gauge.builder("ironloop.launcher.iteration", iteration, AtomicLong::get)
                .description("the newest iteration reached in the current attempt").tag("job", job).register(registry);
    }

    /** The meters of a level, read under this object's lock at each scrape. */
    private void register(String level, LevelCosts.Level l) {
        FunctionCounter.builder("ironloop.launcher.checkpoint.saves", l, x -> read(() -> x.saves))
                .description("saves the ranks reported on a level").tags("job", job, "level", level).register(registry);
        FunctionCounter.builder("ironloop.launcher.checkpoint.bytes", l, x -> read(() -> x.bytes)).baseUnit("bytes")
                .description("bytes a level holds of the saves reported").tags("job", job, "level", level).register(registry);
        FunctionCounter.builder("ironloop.launcher.checkpoint.blocking", l, x -> read(() -> x.blockingSeconds)).baseUnit("seconds")
                .description("time the saves on a level blocked the application, every rank summed").tags("job", job, "level", level)
                .register(registry);
        Gauge.builder("ironloop.launcher.checkpoint.overhead", l, x -> read(() -> x.overhead(elapsedSeconds(), ranks)))
                .description("blocking time on a level over the elapsed time, per rank").tags("job", job, "level", level)
                .register(registry);
    }

    private synchronized double read(java.util.function.DoubleSupplier figure) {
        return figure.getAsDouble();
    }

    /** Seconds since the job started, up to its end. */
    private double elapsedSeconds() {
        Instant end = finished != null ? finished : clock.instant();
        return started == null ? 0 : Duration.between(started, end).toNanos() / 1e9;
    }

    /** Stops the endpoint. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
