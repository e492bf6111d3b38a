/**
 * The checkpoint container: a versioned, self-describing, little-endian file of CRC32C-checked chunks
 * and a JSON manifest, specified in {@code docs/format.md}. {@link io.ironloop.format.CheckpointWriter}
 * writes one file to a channel; {@link io.ironloop.format.CheckpointReader} validates and reads it,
 * treating every length and count as hostile.
 */
package io.ironloop.format;
