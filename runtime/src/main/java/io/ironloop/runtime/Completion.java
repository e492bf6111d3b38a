package io.ironloop.runtime;


/**
 * The record a finished run leaves in its checkpoint folder, so that running it again over the same folder
 * reports "already complete" instead of computing again.
 *
 * @param jobId the job that completed
 * @param iterations the global iteration count at the end
 * @param result the application's result line (e.g. {@code result sha256=<hex>})
 * @param settingsFingerprint SHA-256 (hex) of the application's settings
 * @param completedAt when the record was written (ISO-8601, UTC)
 */
public record Completion(String jobId, long iterations, String result, String settingsFingerprint, String completedAt) {
}
