package io.ironloop.runtime.blocks;

import io.ironloop.core.Snapshotable;

/**
 * One block of a block-structured domain (waLBerla's unit of partitioning, snapshots and load balance):
 * an id in {@code [0, layout.blockCount())} and its state, which it writes and reads back as a
 * {@link Snapshotable}. A block that arrives at a new owner after a failure is created there by the loop's
 * block factory and restored from its snapshot, so its state must be wholly in what {@code save} writes.
 */
public interface Block extends Snapshotable {
    /** This block's id. */
    int id();
}
