package io.ironloop.group.internal.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deterministic interleavings of the agreement with coordinator deaths and disagreeing views, on the in-JVM
 * hub (messages dropped by a filter, a rank held as if stopped, a membership shown to one rank only).
 */
class AgreementCoordinatorDeathTest {
    private static final byte ACK = 3;
    private static final byte COMMIT = 4;

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private InJvmHub hub;
    private final List<ProcessGroup> groups = new ArrayList<>();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        hub.shutdown();
    }

    private void start(String job, int n) {
        hub = new InJvmHub(job, n);
        for (int r = 0; r < n; r++) {
            groups.add(new Session(hub.endpoint(r), GroupListener.NONE).start());
        }
    }

    private Future<Long> agree(int rank, long value) {
        ProcessGroup g = groups.get(rank);
        return pool.submit(() -> g.agree(value));
    }

    private static boolean isAgree(Envelope e, int from, byte type) {
        return e.kind() == Envelope.Kind.AGREE && e.source() == from && e.payload().get(0) == type;
    }

    /**
     * The coordinator decides (including its own, smallest, proposal), its decision reaches rank 1 only,
     * and it dies. Nobody may have returned yet (rank 1 holds an unconfirmed decision, the coordinator
     * waits for acknowledgements), and afterwards every member returns the decision rank 1 holds.
     */
    @Test
    void agree_coordinatorDiesAfterPartialDecision_nobodyReturnedBeforeAndAllReturnTheDecisionAfter() throws Exception {
        CountDownLatch rank1Acked = new CountDownLatch(1);
        start("partial", 4);
        hub.filter((to, e) -> {
            if (to == 0 && isAgree(e, 1, ACK)) {
                rank1Acked.countDown();
            }
            return !(e.kind() == Envelope.Kind.AGREE && e.source() == 0 && to >= 2);
        });
        List<Future<Long>> results = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            results.add(agree(r, r == 0 ? 1 : 100 + r));
        }
        assertThat(rank1Acked.await(10, TimeUnit.SECONDS)).isTrue();
        for (Future<Long> f : results) {
            assertThat(f.isDone()).isFalse();
        }
        hub.isolate(0);
        for (Future<Long> f : results) {
            assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        }
    }

    /** The coordinator commits, the commit reaches rank 1 only, the coordinator dies: rank 1 leads and commits again. */
    @Test
    void agree_coordinatorDiesAfterPartialCommit_survivorsReturnTheCommittedValue() throws Exception {
        start("commit", 4);
        hub.filter((to, e) -> !(to >= 2 && isAgree(e, 0, COMMIT)));
        List<Future<Long>> results = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            results.add(agree(r, r == 0 ? 1 : 100 + r));
        }
        assertThat(results.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        assertThat(results.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        hub.isolate(0);
        assertThat(results.get(2).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        assertThat(results.get(3).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
    }

    /**
     * The interleaving behind the CI failure of {@code killAgreementCoordinatorDuringAgree}: the coordinator
     * (rank 0) is killed while ranks 1 and 2 agree; rank 2 is stalled (loaded machine) long enough that the
     * new coordinator, rank 1, declares it failed, decides alone (101), returns and leaves. When rank 2
     * resumes it sees rank 1 gone and used to decide alone too (102). Now rank 1 fences rank 2 before acting
     * on the view without it, so rank 2 throws instead of returning a different value.
     */
    @Test
    void agree_stalledMemberFalselyExcludedByNewCoordinator_neverReturnsAnotherValue() throws Exception {
        start("split", 3);
        Future<Long> r1 = agree(1, 101);
        Future<Long> r2 = agree(2, 102);
        hub.hold(2);
        hub.isolate(0);
        hub.showMembership(1, Set.of(1));
        assertThat(r1.get(10, TimeUnit.SECONDS)).isEqualTo(101L);
        groups.get(1).close(); // rank 1 leaves: rank 2 will see it fail
        hub.release(2);
        assertThatThrownBy(() -> r2.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ProcessFailedException.class).hasMessageContaining("declared failed by world rank 1")
                .satisfies(e -> assertThat(((ProcessFailedException) e).failedRanks()).containsExactly(2));
        assertThatThrownBy(() -> groups.get(2).barrier()).isInstanceOf(ProcessFailedException.class);
        assertThatThrownBy(() -> groups.get(2).shrink()).isInstanceOf(ProcessFailedException.class);
        groups.get(2).close(); // does not throw, does not wait for anyone
    }

    /**
     * The mirror image: rank 2 falsely sees a view without rank 1 (which sees both) and becomes coordinator
     * of itself. It decides alone, as its view allows, but only after fencing rank 1, which therefore
     * throws rather than decide with a different coordinator.
     */
    @Test
    void agree_memberSeesTransientViewWithoutNextCoordinator_onlyOneValueIsEverReturned() throws Exception {
        start("mirror", 3);
        Future<Long> r1 = agree(1, 101);
        Future<Long> r2 = agree(2, 102);
        hub.hold(1);
        hub.isolate(0);
        hub.showMembership(2, Set.of(2));
        assertThat(r2.get(10, TimeUnit.SECONDS)).isEqualTo(102L);
        hub.release(1);
        assertThatThrownBy(() -> r1.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ProcessFailedException.class);
    }

    /** Without false suspicion, a coordinator killed during the agreement changes nothing: all return the minimum. */
    @Test
    void agree_coordinatorKilledBeforeProposing_survivorsReturnTheirMinimum() throws Exception {
        start("plain", 3);
        Future<Long> r1 = agree(1, 101);
        Future<Long> r2 = agree(2, 102);
        hub.isolate(0);
        assertThat(r1.get(10, TimeUnit.SECONDS)).isEqualTo(101L);
        assertThat(r2.get(10, TimeUnit.SECONDS)).isEqualTo(101L);
    }
}
