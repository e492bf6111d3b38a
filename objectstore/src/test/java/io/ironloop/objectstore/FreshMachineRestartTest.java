package io.ironloop.objectstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * End to end through the DeLIA runtime with real JVMs: a job copying its lines to a shared directory and to the object
 * store (S3Proxy in this JVM) is killed with {@code kill -9} at a seeded moment while an upload is open; no partial
 * line is then visible on either level; a restart on a "fresh machine" (an empty checkpoint folder) with only the
 * object store, and another with only the shared directory, each finish bit-identical to a failure-free run.
 */
class FreshMachineRestartTest {
    private static final int ITERATIONS = 16;
    /** The killed run computes slowly, so that it is still uploading when killed; the restarts do not pause. */
    private static final long KILLED_PAUSE_MS = 150;
    private static S3ProxyServer server;
    private final List<Process> started = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.shared();
    }

    @AfterEach
    void killLeftovers() {
        for (Process p : started) {
            p.destroyForcibly(); // by its own handle (PID), never by name
        }
    }

    private Process launch(Path log, long pauseMillis, String... params) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), LevelJobMain.class.getName(),
                String.valueOf(ITERATIONS), String.valueOf(pauseMillis)));
        cmd.addAll(List.of(params));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(log.toFile());
        pb.environment().put("AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY);
        pb.environment().put("AWS_SECRET_ACCESS_KEY", S3ProxyServer.SECRET_KEY);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private String runToEnd(Path log, String... params) throws Exception {
        Process p = launch(log, 0, params);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code; log %s:%n%s", log, Files.readString(log)).isZero();
        return out;
    }

    private String s3(String prefix) {
        return "S3_URI=s3://" + S3ProxyServer.BUCKET + "/" + prefix;
    }

    private String endpoint() {
        return "S3_ENDPOINT=" + server.endpoint();
    }

    @Test
    void killedDuringUpload_noPartialLineOnAnyLevel_andFreshMachinesRestoreBitIdentically() throws Exception {
        // the failure-free run, through the same runtime in this JVM (saving rarely: it only has to compute)
        String reference = "checksum=" + LevelJobMain.run(ITERATIONS, 0, java.util.Map.of("FT_FOLDER", dir.resolve("reference").toString(),
                "CHECKPOINTING_GLOBAL_ITERATION", "1000"));

        // the job, killed at a seeded moment while one of its uploads is open
        Random seeded = new Random(20261124);
        Path shared = dir.resolve("shared");
        Process job = launch(dir.resolve("killed.log"), KILLED_PAUSE_MS, "FT_FOLDER=" + dir.resolve("machine-1"), "SHARED_FOLDER=" + shared, s3("job/"),
                endpoint(), "S3_PART_SIZE=5MiB");
        try (S3Store store = server.store("job/", S3Location.MIN_PART_SIZE); S3Client raw = server.client()) {
            waitFor(() -> !StoreCatalog.of(store).lines("global").isEmpty(), job);
            Thread.sleep(seeded.nextInt(400));
            waitFor(() -> !raw.listMultipartUploads(b -> b.bucket(S3ProxyServer.BUCKET).prefix("job/")).uploads().isEmpty(), job);
            job.destroyForcibly().waitFor(); // SIGKILL
            int open = raw.listMultipartUploads(b -> b.bucket(S3ProxyServer.BUCKET).prefix("job/")).uploads().size();

            assertThat(open).as("uploads left open by the kill").isPositive();
            assertNoPartialLine(store);
            assertNoPartialLine(Store.directory(shared));
        }

        String fromS3 = runToEnd(dir.resolve("fresh-s3.log"), "FT_FOLDER=" + dir.resolve("machine-2"), s3("job/"), endpoint(),
                "CHECKPOINTING_GLOBAL_ITERATION=4");
        assertThat(fromS3).isEqualTo(reference);
        assertThat(Files.readString(dir.resolve("fresh-s3.log"))).contains("from level 's3'");
        try (S3Client raw = server.client()) { // the uploads the kill left open were aborted once newer lines were copied
            assertThat(raw.listMultipartUploads(b -> b.bucket(S3ProxyServer.BUCKET).prefix("job/")).uploads()).isEmpty();
        }

        String fromShared = runToEnd(dir.resolve("fresh-shared.log"), "FT_FOLDER=" + dir.resolve("machine-3"), "SHARED_FOLDER=" + shared,
                "CHECKPOINTING_GLOBAL_ITERATION=4");
        assertThat(fromShared).isEqualTo(reference);
        assertThat(Files.readString(dir.resolve("fresh-shared.log"))).contains("from level 'shared'");
    }

    /** Every commit record on the level names a data file that is there, whole, and passes every checksum. */
    private static void assertNoPartialLine(Store level) throws IOException {
        StoreCatalog catalog = StoreCatalog.of(level);
        List<LineInfo> lines = new ArrayList<>();
        for (String series : catalog.series()) {
            StoreCatalog.SeriesListing listing = catalog.list(series);
            assertThat(listing.invalidCommits()).as("commit records without their whole data file in %s", level.location()).isEmpty();
            lines.addAll(listing.lines());
        }
        assertThat(lines).as("committed lines in %s", level.location()).isNotEmpty();
        assertThat(catalog.verifyStore().problems()).as("checksums in %s", level.location()).isEmpty();
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    private static void waitFor(Condition c, Process job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!c.holds()) {
            assertThat(job.isAlive()).as("the job ended before the moment to kill it").isTrue();
            assertThat(System.nanoTime()).as("waited 60 s").isLessThan(deadline);
            Thread.sleep(2);
        }
    }
}
