package io.ironloop.core.level;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A place where snapshots live: this process's memory, a partner's memory, an erasure-coded group's
 * parity, the local disk, and later a shared file system or an object store. Levels form a {@link LevelChain}: a
 * snapshot is written through every level in order, each level doing its part and calling
 * {@link Chain#proceed()} exactly once (so a level may overlap its own work with the levels after it);
 * restore asks the nearest level first and falls back level by level.
 *
 * <p><b>Double buffer.</b> A level keeps the snapshot it is writing apart from the committed one. After the
 * handshake (every rank finished creating and sending its snapshot) the chain calls {@link #commit}; if a
 * rank failed first, {@link #abort}: the committed snapshot stays restorable everywhere.
 *
 * <p><b>Threading.</b> {@code write}, {@code commit}, {@code abort} are called by one thread (the
 * application's); {@link #holdings} and {@link #read} may be called during recovery from the same thread.
 */
public interface Level extends AutoCloseable {

    /** A short name for logs and events: {@code memory}, {@code partner}, {@code disk}. */
    String name();

    /**
     * Writes {@code chain.snapshot()} on this level and calls {@code chain.proceed()} exactly once (before,
     * during or after its own work).
     *
     * @throws IOException if this level could not keep the snapshot (the handshake then fails)
     */
    void write(Chain chain) throws IOException;

    /** The snapshot of {@code iteration} written last is now the committed one (the handshake agreed). */
    void commit(long iteration);

    /** The handshake failed: forget what {@link #write} kept for {@code iteration}; the committed one stays. */
    void abort(long iteration);

    /**
     * What this level can give back right now: for each block id it holds a committed image of (every rank's
     * blocks it holds, not only this rank's), the iteration of that image.
     */
    Map<Long, Long> holdings() throws IOException;

    /**
     * The committed image of {@code blockId} at {@code iteration}, checked against its CRC32C, or empty when
     * this level does not hold it.
     *
     * @throws io.ironloop.format.CorruptCheckpointException if the level holds it but it is damaged
     */
    Optional<BlockImage> read(long blockId, long iteration) throws IOException;

    /**
     * Rebuilds, for the survivors of a failure, what this level can of the committed snapshots of
     * {@code lostWorldRanks} at {@code iteration}, so that {@link #holdings} and {@link #read} give them back
     * (on whichever survivor the level chooses) until the next commit. Collective: every survivor calls it with
     * the same arguments. The default rebuilds nothing (levels whose copies are whole images need not).
     *
     * @param survivors the shrunk group's connections
     */
    default void rebuild(Set<Integer> lostWorldRanks, long iteration, PeerLink survivors) {
    }

    /**
     * How many copies of a rank's own snapshot this level keeps in memory, counting both buffers, per
     * process (self memory: 2; pairwise partner: 2; XOR over k: 2/k; disk: 0). The chain's memory factor is 1 +
     * their sum.
     */
    double copiesInMemory();

    @Override
    void close();

    /** The rest of the write path, as seen by one level. */
    interface Chain {
        /** The snapshot being written. */
        Snapshot snapshot();

        /** Passes the snapshot on to the next levels; call exactly once. */
        void proceed() throws IOException;
    }
}
