package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.PreemptionNotice;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerListener;
import io.ironloop.runtime.trigger.TriggerOptions;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls cloud metadata endpoints on a daemon thread, {@code ironloop-preemption-watch}, and starts the
 * trigger action once, with the provider's deadline minus the margin, when a preemption notice appears.
 * Polling stops after the notice.
 *
 * <p>Failures never stop the polling: an endpoint that does not answer (refused, unresolved, timed out) is
 * logged once at debug level, and once more as a warning when a configured provider has stayed silent for
 * {@link #SILENT_POLLS_BEFORE_WARNING} polls; an answer in the wrong format (bad status, malformed JSON) is
 * logged as a warning when the problem first appears or changes, and recovery is logged too.
 *
 * <p>With {@link PreemptionNoticeSource#AUTO} the watcher polls every provider until one answers in its own
 * format, then polls only that one; when none has answered after {@link #AUTO_PROBE_POLLS} rounds it logs
 * that notices are off and stops.
 */
public final class PreemptionWatcher implements AutoCloseable {
    static final int AUTO_PROBE_POLLS = 3;
    static final int SILENT_POLLS_BEFORE_WARNING = 10;
    private static final Logger LOG = LoggerFactory.getLogger(PreemptionWatcher.class);

    private final List<MetadataSource> sources;
    private final boolean auto;
    private final Duration interval;
    private final Duration margin;
    private final ActionRunner runner;
    private final TriggerListener listener;
    private final Clock clock;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Map<MetadataSource, SourceState> states = new HashMap<>();
    private Thread thread;

    PreemptionWatcher(List<MetadataSource> sources, boolean auto, Duration interval, Duration margin, ActionRunner runner,
                      TriggerListener listener, Clock clock) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a preemption watcher needs at least one metadata source");
        }
        this.sources = new ArrayList<>(sources);
        this.auto = auto;
        this.interval = Objects.requireNonNull(interval, "interval");
        this.margin = Objects.requireNonNull(margin, "margin");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.listener = SafeListener.wrap(listener);
        this.clock = Objects.requireNonNull(clock, "clock");
        for (MetadataSource s : sources) {
            states.put(s, new SourceState());
        }
    }

    /**
     * A watcher for the provider(s) {@code options} select, not yet started.
     *
     * @throws IllegalArgumentException when {@code options} select no provider ({@link PreemptionNoticeSource#NONE})
     */
    public static PreemptionWatcher create(TriggerOptions options, ActionRunner runner, TriggerListener listener, Clock clock) {
        Duration requestTimeout = clamp(options.pollInterval(), Duration.ofMillis(200), Duration.ofSeconds(2));
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(requestTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        List<MetadataSource> sources = new ArrayList<>();
        PreemptionNoticeSource which = options.preemption();
        if (which == PreemptionNoticeSource.AWS || which == PreemptionNoticeSource.AUTO) {
            sources.add(new AwsSpotSource(options.awsUrl(), http, requestTimeout, clock));
        }
        if (which == PreemptionNoticeSource.GCE || which == PreemptionNoticeSource.AUTO) {
            sources.add(new GcePreemptedSource(options.gceUrl(), http, requestTimeout, clock));
        }
        if (which == PreemptionNoticeSource.AZURE || which == PreemptionNoticeSource.AUTO) {
            sources.add(new AzureScheduledEventsSource(options.azureUrl(), http, requestTimeout, clock));
        }
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("preemption notices are off (" + which + "): there is nothing to watch");
        }
        return new PreemptionWatcher(sources, which == PreemptionNoticeSource.AUTO, options.pollInterval(),
                options.preemptionMargin(), runner, listener, clock);
    }

    /**
     * Starts polling.
     *
     * @throws IllegalStateException when already started
     */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("the preemption watcher was already started");
        }
        thread = new Thread(this::loop, "ironloop-preemption-watch");
        thread.setDaemon(true);
        thread.start();
        LOG.debug("watching for preemption notices from {} every {} ms", sources, interval.toMillis());
    }

    /** Stops polling (a save already started goes on); waits briefly for the thread to end. */
    @Override
    public void close() {
        closing.countDown();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(interval.plusSeconds(3).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        int round = 0;
        try {
            while (closing.getCount() > 0) {
                round++;
                if (pollRound(round)) {
                    return;
                }
                if (closing.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("the preemption watcher failed and stops; preemption notices will not trigger saves", e);
        }
    }

    /** Polls every active source once; true when the watch is over. */
    private boolean pollRound(int round) throws InterruptedException {
        for (MetadataSource source : List.copyOf(sources)) {
            PollResult result = source.poll();
            SourceState state = states.get(source);
            if (result instanceof PollResult.Notice n) {
                onNotice(n.notice());
                return true;
            } else if (result instanceof PollResult.Quiet) {
                state.answered(source);
                if (auto && sources.size() > 1) {
                    LOG.info("AUTO preemption notices: {} answers; watching it alone", source);
                    sources.retainAll(List.of(source));
                    return false;
                }
            } else if (result instanceof PollResult.Unreachable u) {
                state.unreachable(source, u.reason(), !auto);
            } else {
                state.unrecognised(source, ((PollResult.Unrecognised) result).reason(), !auto);
            }
        }
        if (auto && sources.size() > 1 && round >= AUTO_PROBE_POLLS) {
            LOG.info("AUTO preemption notices: no cloud metadata endpoint answered in {} polls ({}); preemption notices are off",
                    round, sources);
            return true;
        }
        return false;
    }

    private void onNotice(PreemptionNotice notice) {
        Instant now = clock.instant();
        Instant saveBy = notice.deadline().minus(margin);
        LOG.warn("{} preemption notice: {}; reclamation at {} ({} ms from now); saving local state by {}", notice.provider(),
                notice.detail(), notice.deadline(), Duration.between(now, notice.deadline()).toMillis(), saveBy);
        TriggerEvent.PreemptionNoticed cause = new TriggerEvent.PreemptionNoticed(notice, now);
        listener.onEvent(cause);
        runner.run(cause, saveBy);
    }

    private static Duration clamp(Duration d, Duration min, Duration max) {
        return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
    }

    /** What was last logged about one source, so that a steady problem is logged once, not every poll. */
    private static final class SourceState {
        private String problem;
        private int silentPolls;
        private boolean warnedSilent;

        void answered(MetadataSource source) {
            if (problem != null) {
                LOG.info("{} answers again", source);
            }
            problem = null;
            silentPolls = 0;
        }

        void unreachable(MetadataSource source, String reason, boolean configured) {
            silentPolls++;
            if (problem == null || !problem.startsWith("unreachable")) {
                LOG.debug("{} does not answer ({}); polling on", source, reason);
                problem = "unreachable";
            }
            if (configured && silentPolls >= SILENT_POLLS_BEFORE_WARNING && !warnedSilent) {
                warnedSilent = true;
                LOG.warn("{} has not answered {} polls in a row ({}): preemption notices cannot be seen until it does; "
                        + "check PREEMPTION_NOTICE and the endpoint URL", source, silentPolls, reason);
            }
        }

        void unrecognised(MetadataSource source, String reason, boolean configured) {
            silentPolls = 0;
            if (!reason.equals(problem)) {
                if (configured) {
                    LOG.warn("unexpected answer from the {} metadata endpoint: {}; polling on", source.provider, reason);
                } else {
                    LOG.debug("unexpected answer from the {} metadata endpoint: {}", source.provider, reason);
                }
                problem = reason;
            }
        }
    }
}
