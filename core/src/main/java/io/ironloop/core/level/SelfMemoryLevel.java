package io.ironloop.core.level;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * This process's own snapshot in its own memory, double-buffered: the snapshot being written and the
 * committed one. Restores that need no communication come from here (waLBerla keeps one copy of its own
 * checkpoint for the same reason).
 */
public final class SelfMemoryLevel implements Level {
    private Snapshot writable;
    private Snapshot committed;
    private Map<Long, BlockImage> committedById = Map.of();

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
        committed = writable;
        writable = null;
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
    public int copiesInMemory() {
        return 2;
    }

    @Override
    public void close() {
        writable = null;
        committed = null;
        committedById = Map.of();
    }
}
