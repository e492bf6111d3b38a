package io.ironloop.core.level;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A level that saves only on the chances its {@link Cadence} takes: every snapshot offered to it is a chance
 * (numbered from 0); a chance not taken passes the snapshot on to the next levels untouched. Commit and abort
 * reach the wrapped level only for the iteration it wrote; reads and holdings are the wrapped level's. This is
 * how a {@link LevelChain} carries one schedule per level.
 *
 * <p>Threading: as {@link Level}.
 */
public final class ScheduledLevel implements Level {
    private final Level inner;
    private final Cadence cadence;
    private long chances;
    private long written = -1;

    /** {@code inner}, saving on the chances {@code cadence} takes. */
    public ScheduledLevel(Level inner, Cadence cadence) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.cadence = Objects.requireNonNull(cadence, "cadence");
    }

    /** The cadence deciding for this level. */
    public Cadence cadence() {
        return cadence;
    }

    /** The iteration of the last snapshot this level wrote, or -1. */
    public long lastWritten() {
        return written;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void write(Chain chain) throws IOException {
        long iteration = chain.snapshot().iteration();
        if (cadence.due(chances++, iteration)) {
            written = iteration;
            cadence.saved(iteration);
            inner.write(chain);
        } else {
            chain.proceed();
        }
    }

    @Override
    public void commit(long iteration) {
        if (iteration == written) {
            inner.commit(iteration);
        }
    }

    @Override
    public void abort(long iteration) {
        if (iteration == written) {
            inner.abort(iteration);
        }
    }

    @Override
    public Map<Long, Long> holdings() throws IOException {
        return inner.holdings();
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) throws IOException {
        return inner.read(blockId, iteration);
    }

    @Override
    public double copiesInMemory() {
        return inner.copiesInMemory();
    }

    @Override
    public void rebuild(java.util.Set<Integer> lostWorldRanks, long iteration, PeerLink survivors) {
        inner.rebuild(lostWorldRanks, iteration, survivors);
    }

    @Override
    public void close() {
        inner.close();
    }
}
