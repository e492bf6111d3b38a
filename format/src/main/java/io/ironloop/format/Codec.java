package io.ironloop.format;

/** How a chunk's bytes are compressed on disk. */
public enum Codec {
    NONE, ZSTD, LZ4
}
