/**
 * What the block-structured examples share: {@link io.ironloop.examples.blocks.BlockExample} (a domain of
 * blocks, their initial state and one step), {@link io.ironloop.examples.blocks.BlockRankMain} (one rank of
 * the fault-tolerant run on a {@link io.ironloop.runtime.blocks.BlockLoop}, under {@code ironloop run}),
 * {@link io.ironloop.examples.blocks.BlockReference} (the failure-free result in one JVM) and the
 * command-line options both use.
 *
 * <p>The examples are {@link io.ironloop.examples.blocks.heat} (2-D Jacobi heat with halo exchange) and
 * {@link io.ironloop.examples.blocks.lbm} (D2Q9 lattice-Boltzmann flow past a cylinder, the waLBerla paper's
 * LBM case). Their arithmetic depends only on the blocks' state, never on which rank owns a block, so a run
 * that lost ranks on the way ends with the same {@code result sha256=} as one that did not.
 */
package io.ironloop.examples.blocks;
