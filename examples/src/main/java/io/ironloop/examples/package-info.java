/**
 * Example applications that Ironloop makes fault tolerant, and what they share.
 *
 * <p>The numerical cores live in sub-packages and know nothing about checkpoints, process groups or
 * failures: {@link io.ironloop.examples.quickstart} is DeLIA's quick-start program (Listing 8 of the
 * paper) and {@link io.ironloop.examples.fwi} a small 2-D acoustic full-waveform inversion. Each keeps
 * its global state in plain arrays that a runtime can register, save and restore in place, and each
 * ends by printing {@code result sha256=<hex>} computed by {@link io.ironloop.examples.ResultDigest},
 * so a run that was interrupted can be compared bit for bit with one that was not.
 */
package io.ironloop.examples;
