package io.ironloop.core;

/**
 * A user entity whose state the engine protects: it writes its state to a sink when a checkpoint is
 * taken (on the caller's thread, so the state is consistent) and reads it back on restore.
 *
 * <p>Entities that keep their own double-buffered snapshots, as waLBerla's do (a read-only buffer holding
 * the last committed snapshot and a writable one that the next {@link #save} fills), implement
 * {@link #swap()}: the engine calls it once the line holding the state written by the last {@code save} is
 * committed, so the new snapshot becomes the read-only one. A checkpoint that fails is never followed
 * by a swap, so the read-only buffer still holds the last committed snapshot.
 */
public interface Snapshotable {
    /** Writes the state. Called on the thread that calls {@link CheckpointEngine#checkpoint(long)}. */
    void save(StateSink sink);

    /** Reads the state written by {@link #save}. */
    void restore(StateSource source);

    /**
     * Swaps the entity's snapshot buffers: the snapshot written by the last {@link #save} is now part of a
     * committed line. Called once per committed line that holds the entity, on the application's thread,
     * from the engine call that first sees the line durable ({@code checkpoint}, {@code awaitDurable},
     * {@code restore} or {@code close}), in commit order. The default does nothing.
     */
    default void swap() {
    }
}
