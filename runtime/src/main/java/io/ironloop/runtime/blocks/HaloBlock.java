package io.ironloop.runtime.blocks;

/**
 * A block that exchanges halo (ghost-layer) data with its neighbours in the {@link BlockLayout}, through
 * {@link StepContext#exchangeHalos()}. The loop routes each halo to the neighbour's owner, whichever rank
 * that is now, so a block's code never depends on where its neighbours live.
 */
public interface HaloBlock extends Block {
    /**
     * The data this block sends to its neighbour in {@code direction}, or null to send nothing that way
     * (e.g. corners for a five-point stencil). Called before any {@link #acceptHalo} of the same exchange.
     */
    double[] haloFor(int direction);

    /** The data the neighbour in {@code direction} sent this block. */
    void acceptHalo(int direction, double[] data);
}
