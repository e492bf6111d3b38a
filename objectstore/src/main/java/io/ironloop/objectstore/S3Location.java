package io.ironloop.objectstore;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an object-store level lives: a bucket, a key prefix, and how to reach the server.
 *
 * @param bucket the bucket (it must exist)
 * @param prefix the key prefix, empty or ending in {@code /}; a store's file {@code series/file} is the object
 *     {@code prefix + series/file}
 * @param endpoint an S3-compatible server's URL (path-style requests), or empty for AWS in {@code region}
 * @param region the region requests are signed for
 * @param partSize the multipart part size in bytes (5 MiB, S3's minimum for every part but the last, to 1 GiB)
 */
public record S3Location(String bucket, String prefix, Optional<URI> endpoint, String region, long partSize) {
    /** S3's smallest part (every part of an upload but the last). */
    public static final long MIN_PART_SIZE = 5L << 20;
    /** The largest part size: a part is read into one buffer while it uploads. */
    public static final long MAX_PART_SIZE = 1L << 30;

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            throw new IllegalArgumentException("a key prefix is empty or ends in '/': " + prefix);
        }
        if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
            throw new IllegalArgumentException("the part size must be 5 MiB (S3's minimum) to 1 GiB (a part is held in memory while it "
                    + "uploads), not " + partSize);
        }
    }

    /**
     * Parses {@code s3://BUCKET} or {@code s3://BUCKET/PREFIX}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static S3Location parse(String uri, Optional<URI> endpoint, String region, long partSize) {
        if (!uri.startsWith("s3://")) {
            throw new IllegalArgumentException("not an s3://BUCKET/PREFIX URI: " + uri);
        }
        String rest = uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
        return new S3Location(bucket, prefix, endpoint, region, partSize);
    }

    /** {@code s3://bucket/prefix}, for messages. */
    @Override
    public String toString() {
        return "s3://" + bucket + "/" + prefix + endpoint.map(e -> " at " + e).orElse("");
    }
}
