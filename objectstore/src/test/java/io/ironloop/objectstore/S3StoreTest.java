package io.ironloop.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.Store;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link S3Store} against S3Proxy in this JVM. */
class S3StoreTest {
    private static final long PART = S3Location.MIN_PART_SIZE;
    private static S3ProxyServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.shared();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void put(Store store, String name, byte[] bytes) throws IOException {
        try (Store.PendingFile f = store.create(name)) {
            f.channel().write(ByteBuffer.wrap(bytes));
            f.publish();
        }
    }

    private static byte[] readAll(Store store, String name) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // until full
            }
            return b.array();
        }
    }

    private static void copy(Store from, Store to, String name) throws IOException {
        try (SeekableByteChannel in = from.openRead(name)) {
            to.copyFrom(in, name);
        }
    }

    @Test
    void copyFrom_multipartFile_isListedAndReadsBackIdentical() throws Exception {
        byte[] data = random((int) (PART + 12345), 1);
        Store local = Store.directory(dir);
        put(local, "rank-00000/line-000000000001.ilc", data);
        try (S3Store s3 = server.store("copy/", PART)) {
            copy(local, s3, "rank-00000/line-000000000001.ilc");

            assertThat(s3.listSeries()).containsExactly("rank-00000");
            assertThat(s3.listFiles("rank-00000")).containsExactly("rank-00000/line-000000000001.ilc");
            assertThat(s3.size("rank-00000/line-000000000001.ilc")).isEqualTo(data.length);
            assertThat(readAll(s3, "rank-00000/line-000000000001.ilc")).isEqualTo(data);
            assertThatThrownBy(() -> copy(local, s3, "rank-00000/line-000000000001.ilc")).isInstanceOf(FileAlreadyExistsException.class);
        }
    }

    @Test
    void copyFrom_afterAnInterruptedUpload_uploadsOnlyTheMissingParts() throws Exception {
        byte[] data = random((int) (2 * PART + 7), 2);
        Store local = Store.directory(dir);
        String name = "rank-00001/line-000000000004.ilc";
        put(local, name, data);
        String key = "resume/" + name;
        try (S3Client raw = server.client(); S3Store s3 = server.store("resume/", PART)) {
            // what a process killed after its first part leaves: an open upload with one part
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(data);
            String id = raw.createMultipartUpload(b -> b.bucket(S3ProxyServer.BUCKET).key(key)
                    .metadata(java.util.Map.of(S3Store.CRC_METADATA, String.format("%08x", crc.getValue())))).uploadId();
            raw.uploadPart(b -> b.bucket(S3ProxyServer.BUCKET).key(key).uploadId(id).partNumber(1),
                    RequestBody.fromBytes(java.util.Arrays.copyOf(data, (int) PART)));
            assertThat(s3.listFiles("rank-00001")).isEmpty(); // an incomplete upload is never visible

            copy(local, s3, name);

            assertThat(readAll(s3, name)).isEqualTo(data);
            assertThat(s3.partsUploaded).hasValue(2); // parts 2 and 3; part 1 was kept
            assertThat(raw.listMultipartUploads(b -> b.bucket(S3ProxyServer.BUCKET).prefix(key)).uploads()).isEmpty();
        }
    }

    @Test
    void openRead_objectReplacedBehindTheStore_failsWithTheChecksumsAtTheEnd() throws Exception {
        byte[] data = random(100_000, 3);
        Store local = Store.directory(dir);
        String name = "global/line-000000000002.ilc";
        put(local, name, data);
        try (S3Client raw = server.client(); S3Store s3 = server.store("corrupt/", PART)) {
            copy(local, s3, name);
            String crc = raw.headObject(b -> b.bucket(S3ProxyServer.BUCKET).key("corrupt/" + name)).metadata().get(S3Store.CRC_METADATA);
            byte[] damaged = data.clone();
            damaged[54_321] ^= 0x10;
            raw.putObject(b -> b.bucket(S3ProxyServer.BUCKET).key("corrupt/" + name).metadata(java.util.Map.of(S3Store.CRC_METADATA, crc)),
                    RequestBody.fromBytes(damaged));

            assertThatThrownBy(() -> readAll(s3, name)).isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("damaged").hasMessageContaining(crc);
        }
    }

    @Test
    void sizeAndOpenRead_missingObject_throwNoSuchFile() throws Exception {
        try (S3Store s3 = server.store("missing/", PART)) {
            assertThatThrownBy(() -> s3.size("rank-00000/line-000000000001.ilc")).isInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> s3.openRead("rank-00000/line-000000000001.commit")).isInstanceOf(NoSuchFileException.class);
        }
    }
}
