/**
 * A gas-storage valuation in the spirit of the FT-GReLoSSS paper's Swing application, twice: on the loop skeleton
 * ({@link io.ironloop.examples.swing.GasStorageSkeleton}, border exchange over subdomains that change every step) and
 * hand-written on a block loop ({@link io.ironloop.examples.swing.GasStorageBlocks}); both print the same
 * {@code result sha256=}. The model and its numerics are {@link io.ironloop.examples.swing.GasStorage}.
 */
package io.ironloop.examples.swing;
