package io.ironloop.core.level;

import io.ironloop.config.ParameterKey;
import java.util.List;

/**
 * The parameter keys of the remote levels (see the README's configuration table): a shared directory and an object
 * store, each switched on by naming where it is. The object store's keys are read by the object-store module
 * ({@code ironloop-objectstore}), found through {@link RemoteLevels.Provider}.
 */
public final class LevelKeys {
    public static final ParameterKey<java.nio.file.Path> SHARED_FOLDER = ParameterKey.path("SHARED_FOLDER", null,
            "shared-file-system level: a directory every host sees; committed lines are copied there in the background"
                    + " (temp, fsync, rename, fsync dir; commit record last) and a restart whose FT_FOLDER lacks them brings"
                    + " them back; unset: no such level");
    public static final ParameterKey<Long> SHARED_RETAIN_LINES = ParameterKey.integer("SHARED_RETAIN_LINES", 2L, 1,
            "committed lines the shared-file-system level keeps per series and settings fingerprint");
    public static final ParameterKey<String> S3_URI = ParameterKey.string("S3_URI", null,
            "object-store level: s3://BUCKET/PREFIX where committed lines are copied in the background (multipart, resumable,"
                    + " CRC32C-checked; commit record last) and a restart whose FT_FOLDER lacks them brings them back; needs"
                    + " ironloop-objectstore on the class path; credentials from the AWS SDK's default chain; unset: no such level")
            .requiring(v -> v.matches("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[A-Za-z0-9._/-]*)?"), "is not s3://BUCKET or s3://BUCKET/PREFIX");
    public static final ParameterKey<String> S3_ENDPOINT = ParameterKey.string("S3_ENDPOINT", null,
            "object-store endpoint URL for S3-compatible servers (path-style requests); unset: AWS for S3_REGION");
    public static final ParameterKey<String> S3_REGION = ParameterKey.string("S3_REGION", "us-east-1",
            "object-store region (request signing)");
    public static final ParameterKey<Long> S3_PART_SIZE = ParameterKey.size("S3_PART_SIZE", 8L << 20, 5L << 20, 5L << 30,
            "object-store multipart part size: the unit of upload, checksum and resumption");
    public static final ParameterKey<Long> S3_RETAIN_LINES = ParameterKey.integer("S3_RETAIN_LINES", 2L, 1,
            "committed lines the object-store level keeps per series and settings fingerprint");

    /** Every key, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(SHARED_FOLDER, SHARED_RETAIN_LINES, S3_URI, S3_ENDPOINT, S3_REGION,
            S3_PART_SIZE, S3_RETAIN_LINES);

    private LevelKeys() {
    }
}
