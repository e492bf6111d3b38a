package io.ironloop.runtime.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the triggers observed and did, delivered to a {@link TriggerListener} in the order it happened.
 *
 * <p>Every {@link Cause} (a signal or a notice) that starts the action is followed by exactly one
 * {@link ActionCompleted} or {@link ActionFailed} for it, unless the process exits first; a signal's exit
 * is announced by {@link Exiting}. Events are immutable.
 */
public sealed interface TriggerEvent {

    /** When the event happened. */
    Instant at();

    /** An event that starts the trigger action: a termination signal or a preemption notice. */
    sealed interface Cause extends TriggerEvent permits SignalReceived, PreemptionNoticed {
    }

    /**
     * A configured termination signal arrived for the first time; the action starts and the process will
     * exit afterwards.
     *
     * @param signal the signal
     * @param exitStatus the status the process will exit with ({@code 128 + signal number})
     * @param at when the handler ran
     */
    record SignalReceived(TerminationSignal signal, int exitStatus, Instant at) implements Cause {
        /** Checks that no component is null. */
        public SignalReceived {
            Objects.requireNonNull(signal, "signal");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * A preemption notice was read from the cloud's metadata endpoint; the action starts.
     *
     * @param notice the provider, deadline and detail
     * @param at when it was read
     */
    record PreemptionNoticed(PreemptionNotice notice, Instant at) implements Cause {
        /** Checks that no component is null. */
        public PreemptionNoticed {
            Objects.requireNonNull(notice, "notice");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * A termination signal arrived while the action for an earlier one was still running.
     *
     * @param signal the repeated (or different) signal
     * @param exitingNow true for a second {@code SIGINT}, which exits at once without waiting for the save
     * @param at when the handler ran
     */
    record SignalRepeated(TerminationSignal signal, boolean exitingNow, Instant at) implements TriggerEvent {
        /** Checks that no component is null. */
        public SignalRepeated {
            Objects.requireNonNull(signal, "signal");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * The action returned normally.
     *
     * @param cause the event that started it
     * @param elapsed how long it ran
     * @param beforeDeadline whether it returned before its deadline
     * @param at when it returned
     */
    record ActionCompleted(Cause cause, Duration elapsed, boolean beforeDeadline, Instant at) implements TriggerEvent {
        /** Checks that no component is null. */
        public ActionCompleted {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * The action threw.
     *
     * @param cause the event that started it
     * @param error what it threw
     * @param at when it threw
     */
    record ActionFailed(Cause cause, Throwable error, Instant at) implements TriggerEvent {
        /** Checks that no component is null. */
        public ActionFailed {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * The process is about to exit because of a termination signal.
     *
     * @param status the exit status ({@code 128 + signal number} of the first signal)
     * @param actionFinished true when the action ended (completed or failed), false when its deadline passed
     *     or a second {@code SIGINT} cut it short
     * @param at when the exit began
     */
    record Exiting(int status, boolean actionFinished, Instant at) implements TriggerEvent {
        /** Checks that no component is null. */
        public Exiting {
            Objects.requireNonNull(at, "at");
        }
    }
}
