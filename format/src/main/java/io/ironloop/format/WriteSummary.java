package io.ironloop.format;

/**
 * What writing one file cost and saved.
 *
 * @param manifest the manifest written (with every chunk's location, for the next differential write)
 * @param fileBytes bytes in the file
 * @param rawBytes payload bytes before elision, compression and references
 * @param zeroChunks chunks elided because all zero
 * @param referencedChunks chunks referenced from an earlier file instead of written
 * @param compressedChunks chunks stored compressed
 * @param compressionSavedBytes raw minus stored bytes over compressed chunks
 */
public record WriteSummary(Manifest manifest, long fileBytes, long rawBytes, long zeroChunks, long referencedChunks,
                           long compressedChunks, long compressionSavedBytes) {
}
