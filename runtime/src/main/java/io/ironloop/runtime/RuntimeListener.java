package io.ironloop.runtime;

import java.time.Duration;

/**
 * Receives the runtime's events, for logs, metrics and tests. Called on the thread that caused the event
 * (the application's, a trigger's or the background writer's); implementations must be quick and
 * thread-safe.
 */
public interface RuntimeListener {
    /** Ignores everything. */
    RuntimeListener NONE = new RuntimeListener() {
    };

    /**
     * The state of a save was copied into the engine's staging (on the thread that asked for the save: the
     * application's or a trigger's); writing it continues in the background.
     *
     * @param level {@code global} or {@code local}
     * @param blocking how long the copy held up the calling thread
     * @param bytes bytes copied
     */
    default void snapshotted(String level, long iteration, Duration blocking, long bytes) {
    }

    /**
     * A line became durable.
     *
     * @param level {@code global} or {@code local}
     */
    default void saved(String level, long iteration, Duration sinceSnapshot) {
    }

    /** State was restored; {@code level} is {@code global} or {@code local}. */
    default void restored(String level, long iteration) {
    }

    /** The newest global line was made under other settings; recovery starts fresh. */
    default void settingsChanged(String savedFingerprint, String currentFingerprint) {
    }

    /** A trigger saved the published state; {@code kind} is {@code heartbeat} or {@code signal-or-notice}. */
    default void triggered(String kind, String detail) {
    }
}
