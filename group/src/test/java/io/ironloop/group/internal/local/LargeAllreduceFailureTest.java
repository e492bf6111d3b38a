package io.ironloop.group.internal.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member dies in the middle of a large allreduce (the reduce-scatter + allgather path), on the in-JVM hub: it has
 * entered the operation and its first pieces have reached their owners, everything it sends after them is lost (as the
 * messages of a process that died while sending), so no survivor can finish; then it crashes. Every survivor must throw
 * {@link ProcessFailedException} naming it, none may hang. The case where the member never enters is
 * {@code InJvmCollectivesTest}'s.
 */
class LargeAllreduceFailureTest {
    private static final int VICTIM = 2;
    /** The victim's pieces of chunk 0, one for each other owner, that arrive before it "dies". */
    private static final int PIECES_DELIVERED = 3;

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private InJvmHub hub;

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        hub.shutdown();
    }

    @Test
    @Timeout(60)
    void allreduce_large_memberDiesAfterItsFirstPieces_everySurvivorThrowsProcessFailed() throws Exception {
        int n = 1 << 20; // 8 MiB of doubles: 2 chunks of 1 MiB per segment at 4 ranks
        hub = new InJvmHub("large-fail-inside", 4);
        AtomicInteger victimPieces = new AtomicInteger();
        CountDownLatch victimInside = new CountDownLatch(1);
        hub.filter((to, e) -> {
            if (e.source() != VICTIM || e.kind() != Envelope.Kind.COLLECTIVE || !e.payload().isDirect()) {
                return true; // the length check's round (heap payloads) and everything of the others
            }
            int k = victimPieces.incrementAndGet(); // the large path's pieces and results travel in direct buffers
            if (k == PIECES_DELIVERED) {
                victimInside.countDown();
            }
            return k <= PIECES_DELIVERED;
        });
        List<ProcessGroup> groups = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            groups.add(new Session(hub.endpoint(r), GroupListener.NONE).start());
        }
        List<Future<String>> outcomes = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            ProcessGroup g = groups.get(r);
            double[] mine = new double[n];
            java.util.Arrays.fill(mine, r + 1.0);
            outcomes.add(pool.submit(() -> {
                try {
                    g.allreduce(mine, ReduceOp.SUM);
                    return "finished";
                } catch (ProcessFailedException e) {
                    return "failed " + e.failedRanks();
                }
            }));
        }
        assertThat(victimInside.await(30, TimeUnit.SECONDS)).as("the victim sent its first pieces of the large path").isTrue();
        for (int r = 0; r < 4; r++) {
            assertThat(outcomes.get(r).isDone()).as("rank " + r + " cannot have finished without the victim's lost pieces").isFalse();
        }
        hub.isolate(VICTIM);
        for (int r = 0; r < 4; r++) {
            String outcome = outcomes.get(r).get(30, TimeUnit.SECONDS);
            if (r != VICTIM) {
                assertThat(outcome).as("rank " + r).isEqualTo("failed [" + VICTIM + "]");
            }
        }
    }
}
