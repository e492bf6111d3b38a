package io.ironloop.examples.blocks.heat;

import io.ironloop.examples.blocks.BlockReference;

/**
 * The failure-free reference of the heat example in one process: {@code HeatBlocksMain [test|demo|bench] [--steps N] [--cells N]}
 * prints the {@code result sha256=<hex>} that {@link HeatBlocksRank} prints for the same options.
 */
public final class HeatBlocksMain {
    private HeatBlocksMain() {
    }

    /**
     * Entry point.
     *
     * @param args {@code [test|demo|bench] [--steps N] [--cells N]}
     */
    public static void main(String[] args) {
        BlockReference.main("HeatBlocksMain", args, HeatBlocks::of);
    }
}
