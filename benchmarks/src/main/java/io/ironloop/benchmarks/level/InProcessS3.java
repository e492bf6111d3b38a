package io.ironloop.benchmarks.level;

import io.ironloop.core.level.RemoteLevel;
import io.ironloop.objectstore.S3Location;
import io.ironloop.objectstore.S3Store;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The s3 level of {@code bench levels}: an S3-compatible server (S3Proxy over a directory, so the objects go to
 * the same disk as the other levels' files) inside the bench JVM on a loopback port the kernel chose, and the
 * object-store level's own {@link S3Store} talking to it over HTTP. S3Proxy is an optional dependency: without it
 * on the class path {@link #available} is false.
 */
final class InProcessS3 implements AutoCloseable {
    private static final String KEY = "ironloop-bench";
    private static final String SECRET = "ironloop-bench-secret";
    private static final String BUCKET = "ironloop-bench";

    private final BlobStoreContext context;
    private final S3Proxy proxy;

    /** Whether S3Proxy is on the class path. */
    static boolean available() {
        try {
            Class.forName("org.gaul.s3proxy.S3Proxy", false, InProcessS3.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    InProcessS3(Path dir) throws Exception {
        Files.createDirectories(dir);
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
        context = ContextBuilder.newBuilder("filesystem").overrides(props).build(BlobStoreContext.class);
        proxy = S3Proxy.builder().blobStore(context.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, KEY, SECRET).build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!AbstractLifeCycle.STARTED.equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        context.getBlobStore().createContainerInLocation(null, BUCKET);
    }

    /** The s3 level over this server, keeping {@code retainLines} per series. */
    RemoteLevel level(int retainLines) {
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        S3Location where = S3Location.parse("s3://" + BUCKET + "/levels", Optional.of(endpoint), "us-east-1", 8L << 20);
        S3Client client = S3Client.builder().region(Region.US_EAST_1).endpointOverride(endpoint).forcePathStyle(true)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY, SECRET)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED).build();
        return new RemoteLevel("s3", new S3Store(client, where, true), retainLines);
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
    }
}
