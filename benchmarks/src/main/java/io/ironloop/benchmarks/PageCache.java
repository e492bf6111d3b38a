package io.ironloop.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Empties the page cache for the cold-cache figures, through Linux's {@code /proc/sys/vm/drop_caches}
 * ({@code 1}: clean page-cache pages; dirty pages stay, so the files measured must have been fsynced). Pure Java
 * has no {@code posix_fadvise(DONTNEED)}, and {@code O_DIRECT} would measure a read that no restore does, so
 * this is the honest way; it needs root and drops the whole machine's clean cache, not only the files'.
 */
public final class PageCache {
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private PageCache() {
    }

    /** Why the cache cannot be dropped here, or empty when {@link #drop()} works (it is tried once). */
    public static Optional<String> unavailable() {
        if (!Files.isWritable(DROP_CACHES)) {
            return Optional.of(DROP_CACHES + " is not writable (not Linux, or not root): cold-cache figures need root");
        }
        try {
            drop();
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("writing 1 to " + DROP_CACHES + " failed: " + e.getMessage());
        }
    }

    /**
     * Drops the clean pages of the page cache.
     *
     * @throws IOException if the kernel refuses
     */
    public static void drop() throws IOException {
        Files.writeString(DROP_CACHES, "1", StandardCharsets.US_ASCII);
    }
}
