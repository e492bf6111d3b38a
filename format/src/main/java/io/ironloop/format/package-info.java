/**
 * The checkpoint container: a versioned, self-describing, little-endian file of CRC32C-checked chunks
 * and a JSON manifest, specified in {@code docs/format.md}. {@link io.ironloop.format.CheckpointWriter}
 * writes one file to a channel; {@link io.ironloop.format.CheckpointReader} validates and reads it,
 * treating every length and count as hostile, either into a buffer or chunk by chunk into a
 * {@link io.ironloop.format.ChunkSink} (which lets a restore copy verified, cache-hot chunks straight
 * into primitive arrays).
 */
package io.ironloop.format;
