package io.ironloop.format;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Who wrote a checkpoint file and when: job, iteration, rank, world size, settings fingerprint, creation
 * time and free-form attributes (string to string) for upper layers.
 *
 * @param jobId the job that wrote the file
 * @param iteration the application iteration of the checkpoint line, at least 0
 * @param rank the writer's rank, below {@code worldSize}
 * @param worldSize number of processes, at least 1
 * @param settingsFingerprint fingerprint of the application's settings
 * @param createdAt when the file was written
 * @param attributes free-form metadata for upper layers
 */
public record FileMeta(String jobId, long iteration, int rank, int worldSize, String settingsFingerprint,
                       Instant createdAt, Map<String, String> attributes) {
    public FileMeta {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(settingsFingerprint, "settingsFingerprint");
        Objects.requireNonNull(createdAt, "createdAt");
        attributes = Map.copyOf(attributes);
        if (iteration < 0 || rank < 0 || worldSize < 1 || rank >= worldSize) {
            throw new IllegalArgumentException("bad file meta: iteration " + iteration + ", rank " + rank + " of " + worldSize);
        }
    }
}
