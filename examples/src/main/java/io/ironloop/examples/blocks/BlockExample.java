package io.ironloop.examples.blocks;

import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.StepContext;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A block-structured example application, independent of how it is run: its layout, the initial state of
 * each block, one time step and its settings. {@link BlockRankMain} runs it as one rank of a fault-tolerant
 * job, {@link BlockReference} in one JVM; both end with the digest of the same block states.
 *
 * <p>Implementations are immutable; {@link #create} and {@link #step} are deterministic functions of the
 * configuration and the blocks' state, so a step redone after a recovery computes the same bits.
 *
 * @param <B> the block type
 */
public interface BlockExample<B extends Block> {
    /** The short name, e.g. {@code heat}: the prefix of the rank's messages. */
    String name();

    /** The problem in words, for the first progress line. */
    String describe();

    /** The blocks and their neighbours. */
    BlockLayout layout();

    /** Block {@code id} in its initial state. */
    B create(int id);

    /** The number of time steps of a complete run. */
    long steps();

    /** Advances every block of {@code context} by one time step. Collective (it exchanges halos). */
    void step(StepContext<B> context);

    /** The settings that determine the result, fingerprinted into every disk line. */
    Map<String, String> settings();

    /**
     * A one-line summary of the state, e.g. the total heat; computed with collectives over the whole domain,
     * so every rank must call it. Printed on standard error at the end of a run.
     */
    String summary(Sums<B> sums);

    /**
     * Whether the result line digests the blocks' {@link #resultRows} ({@link io.ironloop.examples.RowDigest}, the same
     * as a skeleton twin's whatever the split) instead of the blocks' checkpoint images (default).
     */
    default boolean digestsRows() {
        return false;
    }

    /** A block's result after the run: whole rows of a global row-major array, keyed by the first row. */
    default java.util.Map<Integer, double[]> resultRows(B block) {
        throw new UnsupportedOperationException(name() + " digests its blocks' images, not rows");
    }

    /**
     * A sum over every block of the domain, added in block order (e.g. {@code BlockLoop::sum}), so its value
     * does not depend on who owns which block. Collective.
     *
     * @param <B> the block type
     */
    @FunctionalInterface
    interface Sums<B> {
        double sum(ToDoubleFunction<? super B> value);
    }
}
