package io.ironloop.runtime.internal.blocks;

import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockLayout;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The live state of a block loop on one rank: the current group, who owns which block, and this rank's
 * blocks. Changed only by a recovery ({@link #rebind}); read by the halo exchange, the reductions and the
 * snapshots. One thread (the application's).
 *
 * @param <B> the block type
 */
public final class Domain<B extends Block> {
    private final BlockLayout layout;
    private final IntFunction<? extends B> factory;
    private ProcessGroup group;
    private Ownership ownership;
    private Map<Integer, Integer> rankOfWorld;
    private TreeMap<Integer, B> mine = new TreeMap<>();

    public Domain(BlockLayout layout, IntFunction<? extends B> factory, ProcessGroup group, Ownership ownership) {
        this.layout = layout;
        this.factory = factory;
        rebind(group, ownership);
        for (int id : ownership.blocksOf(group.worldRank(group.rank()))) {
            mine.put(id, create(id));
        }
    }

    /** A new block {@code id} in its initial state, from the application's factory. */
    public B create(int id) {
        B b = factory.apply(id);
        if (b == null || b.id() != id) {
            throw new IllegalStateException("the block factory returned " + (b == null ? "null" : "block " + b.id()) + " for id " + id);
        }
        return b;
    }

    /** After a recovery: the new group and ownership (the blocks are set by {@link #replaceBlocks}). */
    public void rebind(ProcessGroup group, Ownership ownership) {
        this.group = group;
        this.ownership = ownership;
        Map<Integer, Integer> m = new HashMap<>();
        for (int r = 0; r < group.size(); r++) {
            m.put(group.worldRank(r), r);
        }
        this.rankOfWorld = m;
    }

    /** This rank's blocks from now on. */
    public void replaceBlocks(Map<Integer, B> blocks) {
        this.mine = new TreeMap<>(blocks);
    }

    public BlockLayout layout() {
        return layout;
    }

    public ProcessGroup group() {
        return group;
    }

    public Ownership ownership() {
        return ownership;
    }

    /** This process's world rank. */
    public int worldRank() {
        return group.worldRank(group.rank());
    }

    /** The current rank of {@code worldRank}. */
    public int rankOf(int worldRank) {
        Integer r = rankOfWorld.get(worldRank);
        if (r == null) {
            throw new IllegalStateException("world rank " + worldRank + " is not in the current group");
        }
        return r;
    }

    /** The current rank owning {@code block}. */
    public int ownerRank(int block) {
        return rankOf(ownership.ownerOf(block));
    }

    /** This rank's blocks by id, ascending. */
    public Map<Integer, B> blocks() {
        return Collections.unmodifiableMap(mine);
    }

    /** This rank's blocks, ascending by id. */
    public List<B> blockList() {
        return List.copyOf(mine.values());
    }
}
