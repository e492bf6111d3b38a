package io.ironloop.core;

import java.time.Duration;

/**
 * Observes the engine. Every start event is followed by exactly one matching end or failure event.
 * Methods are called on the engine's threads (snapshot events on the caller's, except an in-place checkpoint's;
 * persist events on the background writer's) and must be fast and never throw; exceptions they throw are
 * logged and ignored.
 */
public interface EngineListener {
    /** A listener that ignores everything. */
    EngineListener NONE = new EngineListener() {
    };

    default void checkpointStarted(String series, long iteration) {
    }

    /**
     * The registered state was copied into staging; the caller continues. {@code blocking}: how long the caller
     * waited, from its call (a wait for a free in-flight slot included) to now. An in-place checkpoint
     * ({@link CheckpointEngine#checkpointInPlace}) reads the state as it writes it and its caller waits for the
     * write: its snapshot is reported once the line is written, just before {@link #checkpointDurable}, on the
     * writer's thread, with the caller's wait until then (checkpoints in flight, and the write, included).
     */
    default void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
    }

    /** The line is committed and durable. */
    default void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
    }

    /** The checkpoint failed (staging threw, or the background write failed); the previous complete line is intact. */
    default void checkpointFailed(String series, long iteration, Throwable cause) {
    }

    default void restoreStarted(String series) {
    }

    /** Restored {@code line}, or found nothing to restore when it is null. */
    default void restoreFinished(String series, LineInfo line, Duration took) {
    }

    /**
     * {@code line} could not be restored (corrupt, unreadable, not the file its commit record committed, or
     * not holding the protected entries as registered); an older line is tried next.
     */
    default void restoreFellBack(LineInfo line, Throwable cause) {
    }

    /**
     * A commit record newer than the line being restored does not hold (damaged, or describing another
     * series or line than the one it is named for), so its line does not exist and an older one is restored.
     *
     * @param commitFile the record's store-relative name
     * @param cause why it does not hold, naming the record and the offset
     */
    default void restoreSkippedRecord(String commitFile, Throwable cause) {
    }

    /**
     * The restore ended without restoring a line: no committed line is intact, the newest one was made
     * under other settings, or it does not hold the protected entries. The matching end of
     * {@link #restoreStarted} when {@link #restoreFinished} is not called.
     */
    default void restoreFailed(String series, Throwable cause) {
    }
}
