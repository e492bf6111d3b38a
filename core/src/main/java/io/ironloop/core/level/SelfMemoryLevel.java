package io.ironloop.core.level;

import io.ironloop.BufferPool;
import java.util.Objects;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * This process's own snapshot in its own memory, double-buffered: the snapshot being written and the
 * committed one. Restores that need no communication come from here (waLBerla keeps one copy of its own
 * checkpoint for the same reason).
 *
 * <p>When a new snapshot commits, the buffers of the one it replaces go back to the pool the snapshots are
 * captured into (the level is then their last holder), so the next capture reuses them.
 */
public final class SelfMemoryLevel implements Level {
    private final BufferPool pool;
    private Snapshot writable;
    private Snapshot committed;
    private Map<Long, BlockImage> committedById = Map.of();

    /** A level that gives the buffers of replaced snapshots back to {@code pool}. */
    public SelfMemoryLevel(BufferPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** A level that leaves replaced snapshots to the garbage collector. */
    public SelfMemoryLevel() {
        this(new BufferPool(0));
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public void write(Chain chain) throws java.io.IOException {
        writable = chain.snapshot();
        chain.proceed();
    }

    @Override
    public void commit(long iteration) {
        if (writable == null || writable.iteration() != iteration) {
            return;
        }
        Snapshot replaced = committed;
        committed = writable;
        writable = null;
        if (replaced != null && replaced != committed) {
            replaced.images().forEach(i -> pool.give(i.buffer()));
        }
        Map<Long, BlockImage> byId = new HashMap<>();
        committed.images().forEach(i -> byId.put(i.blockId(), i));
        committedById = byId;
    }

    @Override
    public void abort(long iteration) {
        if (writable != null && writable.iteration() == iteration) {
            writable = null;
        }
    }

    @Override
    public Map<Long, Long> holdings() {
        Map<Long, Long> h = new HashMap<>();
        if (committed != null) {
            committedById.keySet().forEach(id -> h.put(id, committed.iteration()));
        }
        return h;
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) {
        if (committed == null || committed.iteration() != iteration) {
            return Optional.empty();
        }
        BlockImage i = committedById.get(blockId);
        return i == null ? Optional.empty() : Optional.of(i.verified("this rank's memory"));
    }

    /** The committed snapshot, if any. */
    public Optional<Snapshot> committed() {
        return Optional.ofNullable(committed);
    }

    @Override
    public double copiesInMemory() {
        return 2;
    }

    @Override
    public void close() {
        writable = null;
        committed = null;
        committedById = Map.of();
    }
}
