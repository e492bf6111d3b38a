package io.ironloop.objectstore;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.core.level.LevelKeys;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.core.level.RemoteLevels;
import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Opens the object-store level named {@value #NAME} when {@link LevelKeys#S3_URI} is set: an {@link S3Store} with the
 * SDK's default credentials chain (environment {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, profile,
 * instance role). Found by {@link RemoteLevels#open} through {@link java.util.ServiceLoader}.
 */
public final class S3LevelProvider implements RemoteLevels.Provider {
    /** The level's name in logs, events and tools. */
    public static final String NAME = "s3";

    /** The public no-argument constructor {@link java.util.ServiceLoader} needs. */
    public S3LevelProvider() {
    }

    @Override
    public Optional<RemoteLevel> open(Parameters p) {
        Optional<String> uri = p.find(LevelKeys.S3_URI);
        if (uri.isEmpty()) {
            return Optional.empty();
        }
        Optional<URI> endpoint = p.find(LevelKeys.S3_ENDPOINT).map(e -> {
            try {
                return URI.create(e);
            } catch (IllegalArgumentException ex) {
                throw new ConfigurationException("S3_ENDPOINT " + e + " is not a URL: " + ex.getMessage(), ex);
            }
        });
        S3Location where = S3Location.parse(uri.get(), endpoint, p.get(LevelKeys.S3_REGION), p.get(LevelKeys.S3_PART_SIZE));
        return Optional.of(new RemoteLevel(NAME, new S3Store(client(where), where, true),
                Math.toIntExact(p.get(LevelKeys.S3_RETAIN_LINES)), p.get(LevelKeys.S3_EVERY), p.get(LevelKeys.S3_BANDWIDTH)));
    }

    /**
     * A client for {@code where}: path-style requests to a given endpoint, the JDK's HTTP client, and checksums only
     * where this store sets them (it sends CRC32C per part itself; some S3-compatible servers reject the SDK's
     * streaming trailer checksums).
     */
    public static S3Client client(S3Location where) {
        var b = S3Client.builder().region(Region.of(where.region())).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(DefaultCredentialsProvider.builder().build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        where.endpoint().ifPresent(e -> b.endpointOverride(e).forcePathStyle(true));
        return b.build();
    }
}
