/**
 * D2Q9 lattice-Boltzmann flow past a cylinder on blocks (the waLBerla paper's LBM case):
 * {@link io.ironloop.examples.blocks.lbm.LbmConfig} (sizes and physics, with the {@code test} and {@code demo} presets),
 * {@code D2Q9} (the lattice), {@link io.ironloop.examples.blocks.lbm.LbmBlock} (one block: fused stream and BGK
 * collide, bounce-back, inflow and outflow, the eight-way halo), {@link io.ironloop.examples.blocks.lbm.CylinderFlow}
 * (the layout and the step), {@link io.ironloop.examples.blocks.lbm.LbmRank} (one rank under {@code ironloop run})
 * and {@link io.ironloop.examples.blocks.lbm.LbmMain} (the failure-free reference in one process).
 */
package io.ironloop.examples.blocks.lbm;
