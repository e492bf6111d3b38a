package io.ironloop.sites.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.SiteDirectory;
import io.ironloop.sites.Topology;
import io.ironloop.sites.Topology.RankPlace;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notices of committed lines never hold up the thread that commits them, whatever the protector does. */
class LineNoticesTest {
    @TempDir
    Path dir;

    @Test
    void offer_protectorAcceptsButNeverAnswers_neverBlocks_keepsTheNewestNotices() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread accepting = new Thread(() -> { // accepts every connection and says nothing: the handshake waits its timeout
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            accepting.setDaemon(true);
            accepting.start();
            String at = "127.0.0.1:" + ((InetSocketAddress) silent.getLocalSocketAddress()).getPort();
            Topology table = Topology.of(List.of(new RankPlace(0, "x1", "X"), new RankPlace(1, "y1", "Y")), List.of())
                    .withProtectors(Map.of("X", at, "Y", at));
            LineNotices.Sender sender = new LineNotices.Sender(SiteDirectory.of(0, table, JobSecret.create(dir, "job"), false,
                    Duration.ofSeconds(30)));

            long start = System.nanoTime();
            for (int it = 1; it <= 10_000; it++) {
                sender.offer(new LineNotices.Notice("rank-00000", it, e -> { }));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("10,000 notices queued while the sender waits").isLessThan(
                    Duration.ofSeconds(5));
            List<LineNotices.Notice> waiting = sender.waiting();
            assertThat(waiting).hasSizeLessThanOrEqualTo(LineNotices.QUEUED).isNotEmpty();
            assertThat(waiting.get(waiting.size() - 1).iteration()).as("the newest kept, the oldest dropped").isEqualTo(10_000);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
