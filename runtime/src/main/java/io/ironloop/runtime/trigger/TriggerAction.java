package io.ironloop.runtime.trigger;

import java.io.IOException;
import java.time.Instant;

/**
 * What the runtime does when a trigger fires: save the local state last published at a task boundary,
 * durably, and then the global state at the next consistent point.
 *
 * <p>Threading: runs on a dedicated thread named {@code ironloop-trigger-action}, never on the JVM's signal
 * dispatcher or a poller, and never twice at the same time: a signal that arrives while the action runs
 * for a preemption notice waits for that run instead of starting another. It runs at most once per
 * signal-triggered exit and once per preemption notice.
 *
 * <p>Deadline: the action should return before {@code deadline}. For a signal, that is the signal's arrival
 * plus {@link TriggerKeys#TRIGGER_SIGNAL_DEADLINE}, after which the process exits whether or not the action
 * returned. For a preemption notice it is the provider's deadline minus {@link TriggerKeys#PREEMPTION_MARGIN},
 * the margin the runtime reserves for the platform's own shutdown; the process keeps running afterwards
 * (the platform's shutdown sends {@code SIGTERM}, which the signal trigger handles).
 */
@FunctionalInterface
public interface TriggerAction {
    /**
     * Saves the state.
     *
     * @param cause the signal or notice that fired
     * @param deadline when the save must be durable
     * @throws IOException when the save failed; it is logged and reported as
     *     {@link TriggerEvent.ActionFailed}, and a signal's exit still happens
     * @throws InterruptedException when the thread was interrupted while waiting
     */
    void onTrigger(TriggerEvent.Cause cause, Instant deadline) throws IOException, InterruptedException;
}
