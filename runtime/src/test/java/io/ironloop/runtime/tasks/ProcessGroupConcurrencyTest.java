package io.ironloop.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Guards the assumption the task pool is built on: point-to-point send and receive on distinct (peer, tag)
 * pairs may run on several threads of one rank at the same time (the pool's service threads and the
 * application thread do), each receiver getting its own messages in order. {@code ProcessGroup}'s Javadoc
 * speaks of one application thread at a time; its mailbox is locked and its transports are thread-safe.
 */
class ProcessGroupConcurrencyTest {
    private static final int MESSAGES = 200;
    private static final int TAG = StealMessages.TAG_BASE;

    @Test
    void sendAndReceive_distinctPairsFromConcurrentThreads_eachReceiverGetsItsOwnMessagesInOrder() throws Exception {
        try (InJvmCluster c = InJvmCluster.open("concurrent-p2p", 3)) {
            // each rank sends to each other rank on two tags, from one thread per (destination, tag), and
            // receives from each other rank on both tags, from one thread per (source, tag): 8 threads per rank
            List<List<Integer>> received = RankThreads.run(3 * 8, slot -> {
                int rank = slot / 8;
                int role = slot % 8;
                ProcessGroup g = c.group(rank);
                int peer = (rank + 1 + role / 2 % 2) % 3;
                int tag = TAG + role % 2;
                if (role < 4) {
                    for (int i = 0; i < MESSAGES; i++) {
                        g.send(peer, tag, ByteBuffer.allocate(8).putInt(rank).putInt(i).array());
                    }
                    return List.of();
                }
                List<Integer> seen = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    ByteBuffer b = ByteBuffer.wrap(g.receive(peer, tag));
                    assertThat(b.getInt()).isEqualTo(peer);
                    seen.add(b.getInt());
                }
                return seen;
            });
            List<Integer> inOrder = IntStream.range(0, MESSAGES).boxed().toList();
            for (int slot = 0; slot < received.size(); slot++) {
                if (slot % 8 >= 4) {
                    assertThat(received.get(slot)).as("receiver slot %d", slot).isEqualTo(inOrder);
                }
            }
        }
    }
}
