package io.ironloop.core.level;

import io.ironloop.config.ParameterKey;
import io.ironloop.core.Schedule;
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
    public static final ParameterKey<Schedule> SHARED_EVERY = remoteEvery("SHARED_EVERY", "shared-file-system");
    public static final ParameterKey<Long> SHARED_BANDWIDTH = remoteBandwidth("SHARED_BANDWIDTH", "shared-file-system");
    public static final ParameterKey<String> S3_URI = ParameterKey.string("S3_URI", null,
            "object-store level: s3://BUCKET/PREFIX where committed lines are copied in the background (multipart, resumable,"
                    + " CRC32C-checked; commit record last) and a restart whose FT_FOLDER lacks them brings them back; needs"
                    + " ironloop-objectstore on the class path; credentials from the AWS SDK's default chain; unset: no such level")
            .requiring(v -> v.matches("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[A-Za-z0-9._/-]*)?"), "is not s3://BUCKET or s3://BUCKET/PREFIX");
    public static final ParameterKey<String> S3_ENDPOINT = ParameterKey.string("S3_ENDPOINT", null,
            "object-store endpoint URL for S3-compatible servers (path-style requests); unset: AWS for S3_REGION");
    public static final ParameterKey<String> S3_REGION = ParameterKey.string("S3_REGION", "us-east-1",
            "object-store region (request signing)");
    public static final ParameterKey<Long> S3_PART_SIZE = ParameterKey.size("S3_PART_SIZE", 8L << 20, 5L << 20, 1L << 30,
            "object-store multipart part size: the unit of upload, checksum and resumption (5 MiB, S3's minimum, to 1 GiB: a part is held in memory while it uploads)");
    public static final ParameterKey<Long> S3_RETAIN_LINES = ParameterKey.integer("S3_RETAIN_LINES", 2L, 1,
            "committed lines the object-store level keeps per series and settings fingerprint");

    public static final ParameterKey<Schedule> S3_EVERY = remoteEvery("S3_EVERY", "object-store");
    public static final ParameterKey<Long> S3_BANDWIDTH = remoteBandwidth("S3_BANDWIDTH", "object-store");

    /** Every key, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(SHARED_FOLDER, SHARED_RETAIN_LINES, SHARED_EVERY, SHARED_BANDWIDTH, S3_URI,
            S3_ENDPOINT, S3_REGION, S3_PART_SIZE, S3_RETAIN_LINES, S3_EVERY, S3_BANDWIDTH);

    /** The one definition of a remote level's interval key. */
    private static ParameterKey<Schedule> remoteEvery(String name, String level) {
        return Schedule.key(name, Schedule.every(1), "which committed disk lines the " + level + " level copies: every N-th of each"
                        + " rank's series (1: all), the first after every T (2h), or never (restore only); not adaptive")
                .requiring(s -> !(s instanceof Schedule.Adaptive), RemoteLevel.NOT_ADAPTIVE);
    }

    /** The one definition of a remote level's bandwidth budget key. */
    private static ParameterKey<Long> remoteBandwidth(String name, String level) {
        return ParameterKey.size(name, 0, 0, Long.MAX_VALUE, "bandwidth budget of the " + level + " level: at most this many bytes"
                + " per second per process read for its copies (e.g. 200MiB), leaving the rest to the application; 0: no limit");
    }

    private LevelKeys() {
    }
}
