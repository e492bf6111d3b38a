/**
 * 2-D heat conduction by Jacobi iteration on blocks with halo exchange: {@link io.ironloop.examples.blocks.heat.HeatBlocksConfig}
 * (sizes, with the {@code test} and {@code demo} presets), {@link io.ironloop.examples.blocks.heat.HeatBlock} (one block and
 * its halo), {@link io.ironloop.examples.blocks.heat.HeatBlocks} (the layout and the step),
 * {@link io.ironloop.examples.blocks.heat.HeatBlocksRank} (one rank under {@code ironloop run}) and
 * {@link io.ironloop.examples.blocks.heat.HeatBlocksMain} (the failure-free reference in one process).
 */
package io.ironloop.examples.blocks.heat;
