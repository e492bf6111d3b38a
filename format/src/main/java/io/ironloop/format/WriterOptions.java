package io.ironloop.format;

/**
 * How a writer lays out payload.
 *
 * @param chunkSize raw bytes per chunk (the last chunk of an entry may be shorter); a power of two from 4 KiB to 64 MiB
 * @param compressionLevel codec level (zstd 1..19; ignored by lz4)
 * @param hashChunks whether to record a 256-bit hash of every chunk's raw bytes, which differential
 *     checkpoints compare to decide "unchanged" (never CRC32C)
 */
public record WriterOptions(int chunkSize, int compressionLevel, boolean hashChunks) {
    /** 1 MiB chunks, zstd level 3, no hashing (so no differential references). */
    public static final WriterOptions DEFAULT = new WriterOptions(1 << 20, 3, false);

    public WriterOptions {
        if (Integer.bitCount(chunkSize) != 1 || chunkSize < 4096 || chunkSize > (64 << 20)) {
            throw new IllegalArgumentException("chunk size must be a power of two from 4KiB to 64MiB: " + chunkSize);
        }
    }
}
