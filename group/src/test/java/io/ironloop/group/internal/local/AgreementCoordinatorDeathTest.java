package io.ironloop.group.internal.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.internal.Envelope;
import io.ironloop.group.internal.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgreementCoordinatorDeathTest {

    /**
     * The coordinator decides (including its own, smallest, proposal), its decision reaches rank 1 only,
     * and it dies: ranks 2 and 3 must still return the value rank 1 returned, not the survivors' minimum.
     */
    @Test
    void agree_coordinatorDiesAfterPartialDecision_allSurvivorsReturnSameValue() throws Exception {
        InJvmHub hub = new InJvmHub("partial", 4);
        hub.filter((to, e) -> !(e.kind() == Envelope.Kind.AGREE && e.source() == 0 && to >= 2));
        List<ProcessGroup> groups = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            groups.add(new Session(hub.endpoint(r), GroupListener.NONE).start());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                ProcessGroup g = groups.get(r);
                long value = r == 0 ? 1 : 100 + r;
                results.add(pool.submit(() -> g.agree(value)));
            }
            assertThat(results.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(results.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(results.get(2).isDone()).isFalse();
            hub.isolate(0);
            assertThat(results.get(2).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(results.get(3).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        } finally {
            pool.shutdownNow();
            hub.shutdown();
        }
    }
}
