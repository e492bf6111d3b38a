package io.ironloop.runtime.trigger;

/**
 * Observes {@link TriggerEvent}s, for the runtime's event timeline and for tests.
 *
 * <p>Threading: called on the thread that observed the event (a signal handler thread, a metadata poller,
 * or the action thread), possibly concurrently. Implementations must be fast and must not throw; an
 * exception they throw is logged and otherwise ignored so that it cannot stop a save or an exit.
 */
@FunctionalInterface
public interface TriggerListener {
    /** A listener that ignores every event. */
    TriggerListener NONE = event -> { };

    /** Receives one event. */
    void onEvent(TriggerEvent event);
}
