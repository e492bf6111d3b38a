/**
 * DeLIA's quick-start program (Appendix A, Listing 8 of the paper) in Java: each rank fills
 * {@code local_data[i] = rank * i * ind}, an allreduce sums the ranks' arrays into
 * {@code global_data}, and the loop repeats. A running checksum folds every iteration's global data
 * into the global state, so that every iteration, not only the last, shows in the result.
 *
 * <p>{@link io.ironloop.examples.quickstart.Quickstart} holds the state and the per-iteration steps,
 * independent of any communication API: the runtime supplies the allreduce.
 */
package io.ironloop.examples.quickstart;
