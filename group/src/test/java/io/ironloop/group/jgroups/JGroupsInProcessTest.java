package io.ironloop.group.jgroups;

import io.ironloop.group.launch.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.TestData;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.Ranks;
import io.ironloop.group.ReduceOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several JGroups members in this JVM on loopback: the real stack, without process start-up costs. */
class JGroupsInProcessTest {
    @TempDir
    Path dir;

    @Test
    void collectives_threeMembersOverJGroups_bitIdentical() throws Exception {
        int[] ports = FreePorts.allocate(3);
        Path secret = LocalJob.secret(dir, "s", 1);
        int n = 300_000; // larger than a reduction chunk
        List<String> res = Ranks.run(3, r -> {
            try (ProcessGroup g = LocalJob.join(r, ports, "inproc", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(20)))) {
                double[] sum = g.allreduce(TestData.values(r, n), ReduceOp.SUM);
                assertArrayEquals(TestData.expectedSum(3, n), sum, 0.0);
                g.barrier();
                byte[] b = g.sendrecv(new byte[] {(byte) r}, (r + 1) % 3, (r + 2) % 3, 9);
                assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                        .as("thread names are text (they appear in every log line)")
                        .allMatch(name -> name.chars().noneMatch(Character::isISOControl));
                return g.rank() + ":" + b[0] + ":" + g.agree(10 - r);
            }
        });
        assertThat(res).containsExactly("0:2:8", "1:0:8", "2:1:8");
    }

    /**
     * Bulk data (a direct buffer) over the direct data connections: it arrives whole — across the 1 MiB buffers
     * of the connection, and beside small heap messages on the same connection — in a direct buffer of the
     * receiver's pool; a buffer given back is the one the next message of its size is received into.
     */
    @Test
    void bulkSend_arrivesInAPooledDirectBuffer_andARecycledBufferIsReused() throws Exception {
        int[] ports = FreePorts.allocate(2);
        Path secret = LocalJob.secret(dir, "s", 3);
        int size = (3 << 20) + 12_345;
        List<String> res = Ranks.run(2, r -> {
            try (ProcessGroup g = LocalJob.join(r, ports, "bulk", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(20)))) {
                if (r == 0) {
                    for (int round = 0; round < 2; round++) {
                        java.nio.ByteBuffer data = java.nio.ByteBuffer.allocateDirect(size + 10).position(10);
                        for (int i = 10; i < data.limit(); i++) {
                            data.put(i, (byte) (i * 31 + round));
                        }
                        g.send(1, 5, new byte[] {7, (byte) round});
                        g.send(1, 6, data);
                        assertThat(data.position()).as("send leaves the position alone").isEqualTo(10);
                        g.barrier(); // the receiver gave its buffer back before the next one arrives
                    }
                    return "sent";
                }
                java.nio.ByteBuffer first = null;
                for (int round = 0; round < 2; round++) {
                    assertThat(g.receive(0, 5)).containsExactly(7, round);
                    java.nio.ByteBuffer got = g.receiveBuffer(0, 6);
                    assertThat(got.isDirect()).isTrue();
                    assertThat(got.remaining()).isEqualTo(size);
                    for (int i = 0; i < size; i++) {
                        if (got.get(i) != (byte) ((i + 10) * 31 + round)) {
                            throw new AssertionError("byte " + i + " of round " + round + " differs");
                        }
                    }
                    if (round == 0) {
                        first = got;
                        g.recycle(got);
                    } else {
                        assertThat(got).as("received into the buffer given back").isSameAs(first);
                    }
                    g.barrier();
                }
                return "received";
            }
        });
        assertThat(res).containsExactly("sent", "received");
    }

    /**
     * Frames sent back to back, without waiting for the receiver: bulk payloads of sizes around the 16 KiB a read may
     * take beyond a header or a bulk payload's end (empty, smaller, equal, larger, several MiB), alternating with
     * small heap messages, so that reads end inside headers and payloads of every kind. Each arrives whole, in order
     * and unchanged.
     */
    @Test
    void frames_backToBack_bulkAndHeapOfSizesAroundTheLookahead_arriveWholeAndInOrder() throws Exception {
        int[] ports = FreePorts.allocate(2);
        Path secret = LocalJob.secret(dir, "s", 4);
        int[] sizes = {0, 1, 100, (16 << 10) - 17, (16 << 10) - 1, 16 << 10, (16 << 10) + 1, 1 << 20, (1 << 20) + 7, (3 << 20) + 5, 3};
        List<String> res = Ranks.run(2, r -> {
            try (ProcessGroup g = LocalJob.join(r, ports, "frames", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(20)))) {
                for (int round = 0; round < 2; round++) {
                    for (int k = 0; k < sizes.length; k++) {
                        if (r == 0) {
                            java.nio.ByteBuffer data = java.nio.ByteBuffer.allocateDirect(sizes[k]);
                            for (int i = 0; i < sizes[k]; i++) {
                                data.put(i, (byte) (i * 7 + k));
                            }
                            g.send(1, 6, data);
                            g.send(1, 5, new byte[] {(byte) k, (byte) round});
                        } else {
                            java.nio.ByteBuffer got = g.receiveBuffer(0, 6);
                            assertThat(got.remaining()).as("bulk frame " + k).isEqualTo(sizes[k]);
                            for (int i = 0; i < sizes[k]; i++) {
                                if (got.get(got.position() + i) != (byte) (i * 7 + k)) {
                                    throw new AssertionError("byte " + i + " of bulk frame " + k + " differs");
                                }
                            }
                            g.recycle(got);
                            assertThat(g.receive(0, 5)).as("heap frame " + k).containsExactly(k, round);
                        }
                    }
                }
                g.barrier();
                return r == 0 ? "sent" : "received";
            }
        });
        assertThat(res).containsExactly("sent", "received");
    }

    /**
     * Ranks 1 and 2 start well before rank 0 and discover only each other. Without FormationGate one of
     * them founded the cluster (and on a loaded machine the job could split for good); now they wait for
     * rank 0, which founds it and leads.
     */
    @Test
    void formation_rankZeroStartsLast_othersWaitAndRankZeroLeads() throws Exception {
        int[] ports = FreePorts.allocate(3);
        Path secret = LocalJob.secret(dir, "s", 2);
        List<String> res = Ranks.run(3, r -> {
            if (r == 0) {
                try {
                    Thread.sleep(2500); // longer than a discovery round: the others have long given up finding anyone
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            try (ProcessGroup g = LocalJob.join(r, ports, "late0", secret, GroupConfig.builder().joinTimeout(Duration.ofSeconds(30)))) {
                return g.rank() + ":" + g.leader() + ":" + g.allreduce(1.0, ReduceOp.SUM);
            }
        });
        assertThat(res).containsExactly("0:0:3.0", "1:0:3.0", "2:0:3.0");
    }
}
