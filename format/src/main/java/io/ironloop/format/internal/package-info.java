/**
 * The implementation of the checkpoint container, not exported from the module: the byte layout of
 * header and trailer, the JSON manifest's writer and hostile-input parser, chunk encoding (zero
 * elision, byte shuffle, zstd/lz4) and decoding, and the engines behind
 * {@link io.ironloop.format.CheckpointWriter} and {@link io.ironloop.format.CheckpointReader}.
 * {@code docs/format.md} is the specification these classes implement.
 */
package io.ironloop.format.internal;
