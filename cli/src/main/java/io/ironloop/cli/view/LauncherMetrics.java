package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import io.ironloop.runtime.internal.metrics.PrometheusEndpoint;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
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
 *   <tr><td>{@code ironloop_launcher_rank_failures_total}</td><td>{@code rank-exited} with a non-zero status, {@code rank-lost}</td></tr>
 *   <tr><td>{@code ironloop_launcher_online_recoveries_total}</td><td>the survivors' {@code recovered} (one per recovery)</td></tr>
 *   <tr><td>{@code ironloop_launcher_ranks_alive}</td><td>rank JVMs started and not yet exited</td></tr>
 *   <tr><td>{@code ironloop_launcher_iteration_committed}</td><td>the newest iteration a rank reported {@code saved}
 *       (global state or a block loop's disk line; local state not counted); -1 before the first</td></tr>
 *   <tr><td>{@code ironloop_launcher_iteration}</td><td>the newest iteration a rank reported reaching in the current attempt</td></tr>
 * </table>
 *
 * <p>Thread-safe: events arrive on the supervisor thread, scrapes on the endpoint's.
 */
public final class LauncherMetrics implements Consumer<TimelineEvent>, AutoCloseable {
    private final PrometheusMeterRegistry registry = PrometheusEndpoint.registry();
    private final AtomicLong alive = new AtomicLong();
    private final AtomicLong committed = new AtomicLong(-1);
    private final AtomicLong iteration = new AtomicLong(-1);
    private PrometheusEndpoint endpoint;
    private Counter attempts;
    private Counter relaunches;
    private Counter failures;
    private Counter recoveries;

    /** Meters without an endpoint (tests read {@link #scrape()}). */
    LauncherMetrics() {
    }

    /**
     * Meters served at {@code http://HOST:PORT/metrics}.
     *
     * @param port the port on every interface, 0 for one the kernel chooses
     * @return the metrics, to pass the launcher's events to
     * @throws io.ironloop.ConfigurationException if the port is taken
     */
    public static LauncherMetrics serve(int port) {
        LauncherMetrics m = new LauncherMetrics();
        m.endpoint = PrometheusEndpoint.serve(m.registry, port, "--metrics-port");
        return m;
    }

    /** Where the endpoint listens. */
    public InetSocketAddress address() {
        return endpoint.address();
    }

    /** The metrics in Prometheus' text format, as the endpoint serves them. */
    String scrape() {
        return registry.scrape();
    }

    @Override
    public synchronized void accept(TimelineEvent e) {
        if (TimelineEvent.JOB_STARTED.equals(e.type())) {
            register(String.valueOf(e.fields().get("job")));
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
            case TimelineEvent.RANK_EXITED -> {
                alive.decrementAndGet();
                if (e.longField("status").orElse(-1) != 0) {
                    failures.increment();
                }
            }
            case TimelineEvent.RANK_LOST -> failures.increment();
            case "recovered" -> recoveries.increment();
            case "iteration" -> iteration.accumulateAndGet(e.longField("iteration").orElse(-1), Math::max);
            case "saved" -> {
                if (!"local".equals(e.fields().get("level"))) {
                    committed.accumulateAndGet(e.longField("iteration").orElse(-1), Math::max);
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

    /** Stops the endpoint. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
