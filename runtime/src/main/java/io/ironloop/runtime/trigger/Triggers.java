package io.ironloop.runtime.trigger;

import io.ironloop.ConfigurationException;
import io.ironloop.runtime.internal.trigger.ActionRunner;
import io.ironloop.runtime.internal.trigger.PreemptionWatcher;
import io.ironloop.runtime.internal.trigger.ProcessExit;
import io.ironloop.runtime.internal.trigger.SignalTrigger;
import java.time.Clock;
import java.util.Objects;

/**
 * The running triggers of one rank: the termination-signal handlers and the preemption-notice poller that
 * {@link TriggerOptions} switch on, sharing one {@link TriggerAction}.
 *
 * <p>Behaviour: a configured signal runs the action once and then exits the JVM with status
 * {@code 128 + signal number} when the action returns or {@link TriggerOptions#signalDeadline()} has passed,
 * whichever is first; shutdown hooks then get {@link ProcessExit#SHUTDOWN_HOOK_LIMIT} before the JVM is halted.
 * A preemption notice runs the action once with the provider's deadline minus
 * {@link TriggerOptions#preemptionMargin()} and leaves the process running. The action never runs twice at
 * once; a signal during a notice-triggered save waits for that save, then exits.
 *
 * <p>Threading: {@link #start} and {@link #close} may be called from any thread. The action runs on
 * {@code ironloop-trigger-action}; see {@link TriggerAction}.
 */
public final class Triggers implements AutoCloseable {
    private final SignalTrigger signals;
    private final PreemptionWatcher preemption;

    private Triggers(SignalTrigger signals, PreemptionWatcher preemption) {
        this.signals = signals;
        this.preemption = preemption;
    }

    /**
     * Installs the signal handlers and starts the preemption poller that {@code options} ask for.
     *
     * @param options what to watch
     * @param action the save to run when a trigger fires
     * @param listener receives every {@link TriggerEvent}; use {@link TriggerListener#NONE} for none
     * @throws ConfigurationException when the JVM refuses a configured signal (nothing stays installed)
     */
    public static Triggers start(TriggerOptions options, TriggerAction action, TriggerListener listener) {
        Objects.requireNonNull(options, "options");
        Clock clock = Clock.systemUTC();
        ActionRunner runner = new ActionRunner(action, listener, clock);
        SignalTrigger signalTrigger = null;
        if (!options.signals().isEmpty()) {
            signalTrigger = new SignalTrigger(options.signals(), options.signalDeadline(), runner, listener,
                    ProcessExit.system(ProcessExit.SHUTDOWN_HOOK_LIMIT), clock);
            signalTrigger.install();
        }
        PreemptionWatcher watcher = null;
        try {
            if (options.preemption() != PreemptionNoticeSource.NONE) {
                watcher = PreemptionWatcher.create(options, runner, listener, clock);
                watcher.start();
            }
        } catch (RuntimeException e) {
            if (signalTrigger != null) {
                signalTrigger.close();
            }
            throw e;
        }
        return new Triggers(signalTrigger, watcher);
    }

    /** Whether a termination signal has arrived (the process is then saving and about to exit). */
    public boolean signalled() {
        return signals != null && signals.fired();
    }

    /**
     * Stops polling and puts back the previous signal handlers, unless a signal already arrived, in which
     * case its save and exit go on.
     */
    @Override
    public void close() {
        if (preemption != null) {
            preemption.close();
        }
        if (signals != null) {
            signals.close();
        }
    }
}
