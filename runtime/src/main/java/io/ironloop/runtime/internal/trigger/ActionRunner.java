package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.TriggerAction;
import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the trigger action on a dedicated non-daemon thread, {@code ironloop-trigger-action}, one run at a
 * time: a request that arrives while a run is in flight joins that run instead of starting another.
 *
 * <p>Failure: what the action throws is logged, reported as {@link TriggerEvent.ActionFailed} and completes
 * the returned future exceptionally; it never reaches the caller's thread.
 */
public final class ActionRunner {
    private static final Logger LOG = LoggerFactory.getLogger(ActionRunner.class);

    private final TriggerAction action;
    private final TriggerListener listener;
    private final Clock clock;
    private CompletableFuture<Void> inFlight;

    /**
     * Creates a runner; nothing runs until {@link #run}.
     *
     * @param action the save
     * @param listener receives {@link TriggerEvent.ActionCompleted} and {@link TriggerEvent.ActionFailed}
     * @param clock the time source for the events and the deadline check
     */
    public ActionRunner(TriggerAction action, TriggerListener listener, Clock clock) {
        this.action = Objects.requireNonNull(action, "action");
        this.listener = SafeListener.wrap(listener);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Starts the action for {@code cause}, or returns the run already in flight.
     *
     * @return completes when the action returned (exceptionally when it threw)
     */
    public synchronized CompletableFuture<Void> run(TriggerEvent.Cause cause, Instant deadline) {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(deadline, "deadline");
        if (inFlight != null && !inFlight.isDone()) {
            LOG.info("a trigger save is already running; {} waits for it instead of starting another", describe(cause));
            return inFlight;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> execute(cause, deadline, done), "ironloop-trigger-action");
        thread.setDaemon(false);
        inFlight = done;
        thread.start();
        return done;
    }

    private void execute(TriggerEvent.Cause cause, Instant deadline, CompletableFuture<Void> done) {
        Instant start = clock.instant();
        LOG.info("trigger save started for {}; it must be durable by {} ({} ms from now)", describe(cause), deadline,
                Duration.between(start, deadline).toMillis());
        try {
            action.onTrigger(cause, deadline);
        } catch (Exception | Error e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.error("trigger save for {} failed; the local state of this rank may not be durable", describe(cause), e);
            listener.onEvent(new TriggerEvent.ActionFailed(cause, e, clock.instant()));
            done.completeExceptionally(e);
            return;
        }
        Instant end = clock.instant();
        boolean inTime = !end.isAfter(deadline);
        if (inTime) {
            LOG.info("trigger save for {} finished in {} ms", describe(cause), Duration.between(start, end).toMillis());
        } else {
            LOG.warn("trigger save for {} finished {} ms after its deadline {}", describe(cause),
                    Duration.between(deadline, end).toMillis(), deadline);
        }
        listener.onEvent(new TriggerEvent.ActionCompleted(cause, Duration.between(start, end), inTime, end));
        done.complete(null);
    }

    static String describe(TriggerEvent.Cause cause) {
        if (cause instanceof TriggerEvent.SignalReceived s) {
            return "SIG" + s.signal();
        }
        TriggerEvent.PreemptionNoticed p = (TriggerEvent.PreemptionNoticed) cause;
        return p.notice().provider() + " preemption notice (" + p.notice().detail() + ", deadline " + p.notice().deadline() + ")";
    }
}
