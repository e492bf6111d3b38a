package io.ironloop.examples.swing;

import io.ironloop.examples.blocks.BlockExample;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.StepContext;
import java.util.Locale;
import java.util.Map;

/**
 * {@link GasStorage} written by hand on a block loop, without the skeleton: one block per part, every block a
 * neighbour of every other (the rows a part needs may come from any part once the split moves), and each step's
 * exchange worked out by hand from the split of this step and the next. The same numerics and result as {@link
 * GasStorageSkeleton}.
 */
public final class GasStorageBlocks implements BlockExample<GasStorageBlock> {
    private final GasStorage storage;

    /** The example of {@code storage}. */
    public GasStorageBlocks(GasStorage storage) {
        this.storage = storage;
    }

    @Override
    public String name() {
        return "swing";
    }

    @Override
    public String describe() {
        return storage.describe();
    }

    @Override
    public BlockLayout layout() {
        return BlockLayout.allToAll(storage.parts());
    }

    @Override
    public GasStorageBlock create(int id) {
        return new GasStorageBlock(id, storage);
    }

    @Override
    public long steps() {
        return storage.steps();
    }

    @Override
    public void step(StepContext<GasStorageBlock> context) {
        int t = storage.steps() - 1 - (int) context.iteration();
        for (GasStorageBlock b : context.blocks()) {
            b.compute(t);
        }
        context.exchangeHalos();
        for (GasStorageBlock b : context.blocks()) {
            b.advance();
        }
    }

    @Override
    public Map<String, String> settings() {
        return storage.settings();
    }

    @Override
    public String summary(Sums<GasStorageBlock> sums) {
        return String.format(Locale.ROOT, "storage value %.6f", sums.sum(GasStorageBlock::startValue) / storage.paths());
    }

    @Override
    public boolean digestsRows() {
        return true;
    }

    @Override
    public Map<Integer, double[]> resultRows(GasStorageBlock block) {
        return block.result();
    }
}
