package io.ironloop.runtime.blocks;

/**
 * One iteration of a block-structured application. It must leave the blocks in a state that depends only
 * on their state before the step (and the iteration), so that a step redone after a recovery computes the
 * same thing.
 *
 * @param <B> the block type
 */
@FunctionalInterface
public interface Step<B extends Block> {
    void run(StepContext<B> context);
}
