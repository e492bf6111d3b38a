package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.TerminationSignal;
import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns termination signals into a save followed by an exit with status {@code 128 + signal number}
 * (143 for {@code SIGTERM}, 130 for {@code SIGINT}, 138 for {@code SIGUSR1}, 140 for {@code SIGUSR2} on
 * Linux). Unlike DeLIA, the signal is never swallowed.
 *
 * <p>Threading: the JDK calls the handler on a short-lived thread of its own; the handler only records the
 * signal, starts the save through the {@link ActionRunner} (thread {@code ironloop-trigger-action}) and
 * starts the non-daemon thread {@code ironloop-trigger-exit}, which waits for the save or the deadline and
 * then exits. No lock is held while waiting, so a shutdown hook or a blocked save cannot deadlock the exit.
 *
 * <p>Repeated signals: while the save runs, a further {@code SIGTERM}, {@code SIGUSR1} or {@code SIGUSR2}
 * is logged and ignored (schedulers repeat {@code SIGTERM}; the save keeps going and the exit status stays
 * that of the first signal). A second {@code SIGINT} exits at once with status 130 without waiting: it is
 * what a person at a terminal does to say "stop now", and no scheduler sends it.
 */
public final class SignalTrigger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SignalTrigger.class);

    private final Set<TerminationSignal> signals;
    private final Duration deadline;
    private final ActionRunner runner;
    private final TriggerListener listener;
    private final ProcessExit exit;
    private final Clock clock;
    private final AtomicBoolean exited = new AtomicBoolean();
    private final List<PosixSignals.Installed> installed = new ArrayList<>();
    private TerminationSignal first;
    private int firstStatus;
    private boolean closed;

    /**
     * Creates a trigger; no handler is installed until {@link #install()}.
     *
     * @param signals the signals to handle
     * @param deadline how long after the first signal the exit waits for the save
     * @param runner runs the save
     * @param listener receives the signal events
     * @param exit ends the process
     * @param clock the time source
     */
    public SignalTrigger(Set<TerminationSignal> signals, Duration deadline, ActionRunner runner, TriggerListener listener,
                         ProcessExit exit, Clock clock) {
        this.signals = Set.copyOf(signals);
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.listener = SafeListener.wrap(listener);
        this.exit = Objects.requireNonNull(exit, "exit");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Installs the handlers.
     *
     * @throws io.ironloop.ConfigurationException when the JVM refuses one of the signals; none stays installed
     * @throws IllegalStateException when already installed or closed
     */
    public synchronized void install() {
        if (!installed.isEmpty() || closed) {
            throw new IllegalStateException("the signal trigger is already installed or closed");
        }
        try {
            for (TerminationSignal s : signals) {
                installed.add(PosixSignals.install(s, number -> onSignal(s, number)));
            }
        } catch (RuntimeException e) {
            restoreHandlers();
            throw e;
        }
        LOG.debug("termination signal trigger installed for {}", signals);
    }

    /**
     * Handles one arrival of {@code signal}; the installed handler calls this, tests call it directly.
     *
     * @param signal the signal
     * @param number the platform's number for it
     */
    void onSignal(TerminationSignal signal, int number) {
        Instant now = clock.instant();
        int status = 128 + number;
        TriggerEvent.SignalReceived cause;
        synchronized (this) {
            if (first == null) {
                first = signal;
                firstStatus = status;
                cause = new TriggerEvent.SignalReceived(signal, status, now);
            } else {
                cause = null;
            }
        }
        if (cause == null) {
            onRepeat(signal, status, now);
            return;
        }
        Instant until = now.plus(deadline);
        LOG.warn("received SIG{}: saving local state, then exiting with status {} (at the latest at {})", signal, status, until);
        listener.onEvent(cause);
        CompletableFuture<Void> save = runner.run(cause, until);
        Thread exitThread = new Thread(() -> awaitThenExit(save, until, status), "ironloop-trigger-exit");
        exitThread.setDaemon(false);
        exitThread.start();
    }

    private void onRepeat(TerminationSignal signal, int status, Instant now) {
        boolean exitNow = signal == TerminationSignal.INT;
        listener.onEvent(new TriggerEvent.SignalRepeated(signal, exitNow, now));
        if (exitNow) {
            LOG.warn("second SIGINT during the trigger save: exiting now with status {} without waiting for the save", status);
            exitOnce(status, false);
        } else {
            synchronized (this) {
                LOG.warn("received SIG{} while saving for SIG{}: the save continues; exiting with status {} when it is done",
                        signal, first, firstStatus);
            }
        }
    }

    private void awaitThenExit(CompletableFuture<Void> save, Instant until, int status) {
        boolean finished;
        try {
            long waitMillis = Math.max(0, Duration.between(clock.instant(), until).toMillis());
            save.get(waitMillis, TimeUnit.MILLISECONDS);
            finished = true;
        } catch (ExecutionException e) {
            finished = true;
        } catch (TimeoutException e) {
            LOG.error("the trigger save did not finish by its deadline {} ({} after the signal); exiting with status {} anyway",
                    until, deadline, status);
            finished = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.error("interrupted while waiting for the trigger save; exiting with status {}", status);
            finished = false;
        }
        exitOnce(status, finished);
    }

    private void exitOnce(int status, boolean actionFinished) {
        if (exited.compareAndSet(false, true)) {
            listener.onEvent(new TriggerEvent.Exiting(status, actionFinished, clock.instant()));
            LOG.info("exiting with status {}", status);
            exit.exit(status);
        }
    }

    /** Whether a signal has arrived. */
    public synchronized boolean fired() {
        return first != null;
    }

    /** Restores the handlers this trigger replaced, unless a signal already arrived (its exit is under way). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (first == null) {
            restoreHandlers();
        }
    }

    private void restoreHandlers() {
        for (PosixSignals.Installed i : installed) {
            PosixSignals.restore(i);
        }
        installed.clear();
    }
}
