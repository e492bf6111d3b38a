package io.ironloop.examples.blocks.lbm;

import io.ironloop.examples.blocks.BlockReference;

/**
 * The failure-free reference of the lattice-Boltzmann example in one process: {@code LbmMain [test|demo]
 * [--steps N]} prints the {@code result sha256=<hex>} that {@link LbmRank} prints for the same options.
 */
public final class LbmMain {
    private LbmMain() {
    }

    /**
     * Entry point.
     *
     * @param args {@code [test|demo] [--steps N]}
     */
    public static void main(String[] args) {
        BlockReference.main("LbmMain", args, o -> {
            o.refuseCells("lbm");
            return CylinderFlow.preset(o.size(), o.steps().orElse(0));
        });
    }
}
