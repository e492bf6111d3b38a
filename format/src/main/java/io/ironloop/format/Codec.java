package io.ironloop.format;

/**
 * How a chunk's bytes are compressed on disk. An entry names the codec its writer should try; each
 * chunk records the codec it was actually stored with ({@link #NONE} where compression did not pay).
 */
public enum Codec {
    /** Stored as they are. */
    NONE,
    /** One zstd frame (zstd-jni), after a byte shuffle for multi-byte element types. */
    ZSTD,
    /** One raw LZ4 block (lz4-java), after a byte shuffle for multi-byte element types. */
    LZ4
}
