package io.ironloop.core;

/**
 * A user entity whose state the engine protects: it writes its state to a sink when a checkpoint is
 * taken (on the caller's thread, so the state is consistent) and reads it back on restore.
 *
 * <p>Entities that keep two buffers (source and destination of a stencil sweep, as waLBerla's fields
 * do) implement {@link #swap()} so that a restore can bring back the pair in the right order.
 */
public interface Snapshotable {
    /** Writes the state. Called on the thread that calls {@link CheckpointEngine#checkpoint(long)}. */
    void save(StateSink sink);

    /** Reads the state written by {@link #save}. */
    void restore(StateSource source);

    /**
     * Swaps the entity's double buffers (source and destination). The engine calls it after a restore
     * when the line was saved with the buffers swapped relative to the entity's current parity; the
     * default does nothing.
     */
    default void swap() {
    }
}
