package io.ironloop.objectstore;

import java.net.URI;
import java.util.Optional;
import java.util.Properties;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3-compatible server (S3Proxy over an in-memory blob store) inside the test JVM, on a loopback port the
 * kernel chose, with one bucket and fixed test credentials. Nothing external.
 */
final class S3ProxyServer implements AutoCloseable {
    static final String ACCESS_KEY = "ironloop-test";
    static final String SECRET_KEY = "ironloop-test-secret";
    static final String BUCKET = "ironloop";

    private static S3ProxyServer shared;

    private final BlobStoreContext context;
    private final S3Proxy proxy;

    /**
     * The server every test class of this JVM shares (S3Proxy takes seconds to start); stopped when the JVM exits.
     * Tests keep apart by key prefix.
     */
    static synchronized S3ProxyServer shared() throws Exception {
        if (shared == null) {
            S3ProxyServer s = new S3ProxyServer();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    s.close();
                } catch (Exception e) {
                    System.err.println("stopping S3Proxy: " + e);
                }
            }));
            shared = s;
        }
        return shared;
    }

    private S3ProxyServer() throws Exception {
        context = ContextBuilder.newBuilder("transient").credentials("identity", "credential").overrides(new Properties())
                .build(BlobStoreContext.class);
        proxy = S3Proxy.builder().blobStore(context.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        proxy.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!AbstractLifeCycle.STARTED.equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        context.getBlobStore().createContainerInLocation(null, BUCKET);
    }

    BlobStore blobs() {
        return context.getBlobStore();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    S3Location location(String prefix, long partSize) {
        return S3Location.parse("s3://" + BUCKET + "/" + prefix, Optional.of(endpoint()), "us-east-1", partSize);
    }

    /** A client with the test credentials (the level's own client reads them from the default chain). */
    S3Client client() {
        return S3Client.builder().region(Region.US_EAST_1).endpointOverride(endpoint()).forcePathStyle(true)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED).build();
    }

    S3Store store(String prefix, long partSize) {
        return new S3Store(client(), location(prefix, partSize), true);
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
    }
}
