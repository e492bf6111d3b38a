package io.ironloop.sites.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.EmulatedLink;
import io.ironloop.sites.SiteProtector;
import io.ironloop.sites.Topology;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ProtectorStore} on a real protector (site X holding site Y's copies) over loopback, directly or through an
 * {@link EmulatedLink}: the operations it retries on a new connection are safe to repeat.
 */
class ProtectorStoreTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private JobSecret secret;
    private SiteProtector x;

    @BeforeEach
    void start() throws IOException {
        secret = JobSecret.create(dir, "store");
        Topology table = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y")), List.of());
        ServerSocket xs = SiteProtector.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        table = table.withProtectors(Map.of("X", "127.0.0.1:" + xs.getLocalPort(), "Y", "127.0.0.1:1"));
        // X alone, heartbeats a minute apart: it only serves
        x = SiteProtector.start(new SiteProtector.Config("X", table, dir.resolve("site-X"), dir.resolve("held"), secret, Duration.ofSeconds(60),
                Duration.ofSeconds(600)), xs, e -> { });
    }

    @AfterEach
    void stop() {
        x.close();
    }

    private ProtectorStore store(InetSocketAddress at) {
        return new ProtectorStore(at, "Y", ProtectorStore.Scope.HELD, secret, TIMEOUT);
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static ProtectorStore.ByteArrayChannel channel(byte[] b) {
        return new ProtectorStore.ByteArrayChannel(b);
    }

    private Path held(String name) {
        return dir.resolve("held").resolve("Y").resolve(name);
    }

    @Test
    void put_sameBytesTwice_doneOnce_otherBytesRefused() throws IOException {
        try (ProtectorStore store = store(x.address())) {
            store.copyFrom(channel(bytes(3 << 20, 1)), "rank-00001/a.ilc");
            store.copyFrom(channel(bytes(3 << 20, 1)), "rank-00001/a.ilc"); // a repeated send: done, nothing written

            assertThat(Files.readAllBytes(held("rank-00001/a.ilc"))).isEqualTo(bytes(3 << 20, 1));
            assertThatThrownBy(() -> store.copyFrom(channel(bytes(3 << 20, 2)), "rank-00001/a.ilc")).isInstanceOf(FileAlreadyExistsException.class)
                    .hasMessageContaining("published here with other bytes");
            assertThat(store.listFiles("rank-00001")).containsExactly("rank-00001/a.ilc");
        }
    }

    @Test
    void delete_twice_succeeds() throws IOException {
        try (ProtectorStore store = store(x.address())) {
            store.copyFrom(channel(bytes(100, 1)), "rank-00001/a.ilc");
            store.delete("rank-00001/a.ilc");
            store.delete("rank-00001/a.ilc");
            assertThat(store.listFiles("rank-00001")).isEmpty();
        }
    }

    @Test
    void put_answerLostAfterThePublication_retriedOnANewConnectionAndDone() throws Exception {
        // 250 ms each way: the answer is still on its way back when the file is published at X
        try (EmulatedLink link = EmulatedLink.start(x.address(), new EmulatedLink.Shape(Duration.ofMillis(250), 0));
                ProtectorStore store = store(link.address())) {
            assertThat(store.listSeries()).isEmpty(); // a connection to reuse
            Path published = held("rank-00001/a.ilc");
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> {
                try {
                    store.copyFrom(channel(bytes(1 << 20, 3)), "rank-00001/a.ilc");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(published) && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            assertThat(published).exists();
            assertThat(put).as("the answer has not come back yet").isNotDone();
            link.reset(); // the connection breaks: the client cannot tell whether its PUT arrived

            put.get(30, TimeUnit.SECONDS); // sent again on a new connection, and answered as done
            assertThat(Files.readAllBytes(published)).isEqualTo(bytes(1 << 20, 3));
        }
    }

    /**
     * What the held store knows as the only writer of the copies: the size of a file it published and the bytes of a
     * small one, answered with the protector gone (no round trip); a big file's bytes and a deleted file's size are
     * asked for, and fail without it.
     */
    @Test
    void heldStore_knowsWhatItPublished_withoutAskingTheProtector_forgetsWhatItDeleted() throws IOException {
        byte[] commit = bytes(300, 7);
        try (ProtectorStore store = store(x.address())) {
            store.copyFrom(channel(bytes(3 << 20, 6)), "rank-00001/b.ilc");
            store.copyFrom(channel(commit), "rank-00001/b.commit");
            store.copyFrom(channel(bytes(100, 8)), "rank-00001/c.commit");
            store.delete("rank-00001/c.commit");
            store.close(); // its idle connections (what it knows stays)
            x.close(); // from here on, anything asked of the protector fails

            assertThat(store.size("rank-00001/b.ilc")).isEqualTo(3 << 20);
            try (java.nio.channels.SeekableByteChannel ch = store.openRead("rank-00001/b.commit")) {
                java.nio.ByteBuffer read = java.nio.ByteBuffer.allocate(commit.length);
                while (read.hasRemaining() && ch.read(read) > 0) {
                    // reads what it published
                }
                assertThat(read.array()).isEqualTo(commit);
            }
            assertThatThrownBy(() -> store.openRead("rank-00001/b.ilc")).isInstanceOf(IOException.class); // too big to keep
            assertThatThrownBy(() -> store.size("rank-00001/c.commit")).isInstanceOf(IOException.class); // deleted: forgotten
        }
    }
}
