package io.ironloop.format.internal;

import io.ironloop.format.Manifest;

/**
 * A manifest as parsed, before the semantic checks of {@link ManifestChecks}: the manifest itself, the
 * chunk size and minor version recorded beside it, and where in the file each entry and chunk object
 * starts (so a failed check can name the exact offset).
 *
 * @param manifest the manifest
 * @param chunkSize the writer's chunk size
 * @param minor the minor format version the manifest declares
 * @param entryAt file offset of each entry's JSON object, by entry position
 * @param chunkAt file offset of each chunk's JSON object, by entry then chunk position
 * @param paddingCrc CRC32C over the payload's padding bytes, in file order
 */
public record ParsedManifest(Manifest manifest, long chunkSize, int minor, long[] entryAt, long[][] chunkAt, int paddingCrc) {
}
