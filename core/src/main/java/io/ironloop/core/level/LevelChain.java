package io.ironloop.core.level;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ordered levels a snapshot is written through (nearest first) and restored from (nearest first,
 * falling back level by level). The chain enforces that every level calls {@link Level.Chain#proceed()}
 * exactly once and names the level that breaks the rule.
 *
 * <p>Threading: one thread writes, commits and reads.
 */
public final class LevelChain implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LevelChain.class);

    private final List<Level> levels;

    /** A chain of {@code levels}, nearest first. */
    public LevelChain(List<? extends Level> levels) {
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("a level chain needs at least one level");
        }
        this.levels = List.copyOf(levels);
    }

    /** The levels, nearest first. */
    public List<Level> levels() {
        return levels;
    }

    /**
     * Writes {@code snapshot} through every level.
     *
     * @throws IOException the first level's failure (the levels after a failing one may not have run)
     * @throws IllegalStateException if a level did not call {@code proceed()} exactly once
     */
    public void write(Snapshot snapshot) throws IOException {
        step(0, snapshot);
    }

    private void step(int index, Snapshot snapshot) throws IOException {
        if (index == levels.size()) {
            return;
        }
        Level level = levels.get(index);
        int[] calls = {0};
        level.write(new Level.Chain() {
            @Override
            public Snapshot snapshot() {
                return snapshot;
            }

            @Override
            public void proceed() throws IOException {
                if (++calls[0] > 1) {
                    throw new IllegalStateException("level '" + level.name() + "' called proceed() more than once");
                }
                step(index + 1, snapshot);
            }
        });
        if (calls[0] != 1) {
            throw new IllegalStateException("level '" + level.name() + "' returned without calling proceed()");
        }
    }

    /** The handshake agreed on {@code iteration}: every level commits it. */
    public void commit(long iteration) {
        levels.forEach(l -> l.commit(iteration));
    }

    /** The handshake failed: every level forgets the snapshot of {@code iteration}. */
    public void abort(long iteration) {
        levels.forEach(l -> l.abort(iteration));
    }

    /**
     * Every level rebuilds what it can of the lost ranks' snapshots at {@code iteration} ({@link Level#rebuild}),
     * nearest first. Collective over the survivors.
     */
    public void rebuild(Set<Integer> lostWorldRanks, long iteration, PeerLink survivors) {
        for (Level l : levels) {
            l.rebuild(lostWorldRanks, iteration, survivors);
        }
    }

    /**
     * What the whole chain can give back: for each block id, the newest iteration any level holds it at.
     * A level that cannot say is skipped with a warning.
     */
    public Map<Long, Long> holdings() {
        Map<Long, Long> all = new HashMap<>();
        for (Level l : levels) {
            try {
                l.holdings().forEach((id, it) -> all.merge(id, it, Math::max));
            } catch (IOException | RuntimeException e) {
                LOG.warn("level '{}' cannot list what it holds, skipped: {}", l.name(), e.toString());
            }
        }
        return all;
    }

    /** The levels that hold {@code blockId} at {@code iteration}, nearest first. */
    public boolean holds(long blockId, long iteration) {
        for (Level l : levels) {
            try {
                Long it = l.holdings().get(blockId);
                if (it != null && it == iteration) {
                    return true;
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("level '{}' cannot list what it holds: {}", l.name(), e.toString());
            }
        }
        return false;
    }

    /**
     * The image of {@code blockId} at {@code iteration} from the nearest level that holds an intact one.
     * Levels that do not hold it or hold a damaged copy are skipped; which level gave the image and why the
     * nearer ones were skipped is one log line.
     *
     * @throws NoIntactImageException when no level holds an intact image (naming what each level said)
     */
    public Restored read(long blockId, long iteration) {
        List<String> skipped = new ArrayList<>();
        for (Level l : levels) {
            try {
                Optional<BlockImage> image = l.read(blockId, iteration);
                if (image.isPresent()) {
                    if (!skipped.isEmpty()) {
                        LOG.debug("block {} at iteration {} restored from level '{}'; skipped {}", blockId, iteration, l.name(), skipped);
                    }
                    return new Restored(image.get(), l.name(), List.copyOf(skipped));
                }
                skipped.add(l.name() + ": not held");
            } catch (IOException | RuntimeException e) {
                LOG.warn("level '{}' holds block {} at iteration {} but cannot give it back, trying the next level: {}", l.name(),
                        blockId, iteration, e.toString());
                skipped.add(l.name() + ": " + e.getMessage());
            }
        }
        throw new NoIntactImageException("no level holds an intact snapshot of block " + blockId + " at iteration " + iteration + " "
                + skipped);
    }

    /**
     * Memory the chain keeps per byte of protected state, counting the state itself: 1 + the copies every
     * level keeps in memory (waLBerla's pairwise scheme with double buffers: 1 + 2 + 2 = 5).
     */
    public double memoryFactor() {
        double f = 1;
        for (Level l : levels) {
            f += l.copiesInMemory();
        }
        return f;
    }

    @Override
    public void close() {
        for (Level l : levels) {
            try {
                l.close();
            } catch (RuntimeException e) {
                LOG.warn("closing level '{}' failed: {}", l.name(), e.toString());
            }
        }
    }

    /**
     * An image given back by the chain.
     *
     * @param image the verified image
     * @param level the level that gave it
     * @param skipped the nearer levels skipped, each with its reason
     */
    public record Restored(BlockImage image, String level, List<String> skipped) {
    }
}
