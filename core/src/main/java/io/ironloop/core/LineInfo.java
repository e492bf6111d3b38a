package io.ironloop.core;

import java.time.Instant;
import java.util.Set;

/**
 * A committed checkpoint line of one series, as its commit record describes it.
 *
 * @param series the series (one writer) the line belongs to
 * @param sequence the line's number within the series, increasing with every checkpoint
 * @param iteration the application's iteration when the line was taken
 * @param dataFile store-relative name of the data file
 * @param dataBytes size of the data file
 * @param settingsFingerprint SHA-256 (hex) of the settings entries at the time
 * @param full whether the file holds every chunk itself (false: it references earlier files)
 * @param references store-relative names of earlier files this line's data file references
 * @param jobId the job that wrote it
 * @param rank the writer's rank
 * @param worldSize the number of processes of the job when written
 * @param createdAt when the line was committed
 */
public record LineInfo(String series, long sequence, long iteration, String dataFile, long dataBytes,
                       String settingsFingerprint, boolean full, Set<String> references, String jobId, int rank,
                       int worldSize, Instant createdAt) {
    public LineInfo {
        references = Set.copyOf(references);
    }
}
