package io.ironloop.runtime.blocks;

import io.ironloop.group.ProcessGroup;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What one step of a {@link BlockLoop} sees: the iteration, this rank's blocks and the few collectives a
 * block code needs, all independent of which rank owns which block.
 *
 * @param <B> the block type
 */
public interface StepContext<B extends Block> {
    /** The iteration this step computes (0-based). */
    long iteration();

    /** The blocks this rank owns now, in id order (empty on an idle spare). */
    List<B> blocks();

    /**
     * Exchanges halos between every pair of neighbouring blocks: collects every block's {@link HaloBlock#haloFor}
     * first, then delivers each to its neighbour's {@link HaloBlock#acceptHalo}, through the group for
     * neighbours on other ranks. Collective.
     *
     * @throws io.ironloop.group.ProcessFailedException if a rank failed (the loop recovers)
     */
    void exchangeHalos();

    /**
     * {@link #exchangeHalos()} in the paced mode: this rank exchanges with at most {@code ranksAtATime} other ranks at a
     * time (it sends to the next ones in rank order and takes their messages before it sends further), which bounds
     * the messages in flight and the memory they hold; the halos delivered are the same. Ranks may pass different
     * values. Collective.
     *
     * @throws IllegalArgumentException if {@code ranksAtATime} is below 1
     * @throws io.ironloop.group.ProcessFailedException if a rank failed (the loop recovers)
     */
    void exchangeHalos(int ranksAtATime);

    /**
     * The sum over every block of the domain of {@code value}, added in block-id order so the result is
     * bit-identical whoever owns the blocks. Collective.
     */
    double sum(ToDoubleFunction<? super B> value);

    /**
     * The current process group, for collectives of the application's own; it changes after a recovery, so
     * never keep it across steps. Tags from {@link io.ironloop.core.level.PartnerLevel#TAG_BASE} minus
     * 0x0100_0000 up are reserved.
     */
    ProcessGroup group();
}
