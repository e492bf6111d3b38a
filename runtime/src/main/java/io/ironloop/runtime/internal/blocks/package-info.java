/**
 * The machinery of a block loop (not exported): the live domain and who owns which block, the halo exchange,
 * ownership-independent collectives, and the checkpoint path with its handshake ({@code BlockSnapshots}).
 */
package io.ironloop.runtime.internal.blocks;
