package io.ironloop.runtime.skeleton;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Schedule;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The skeleton's checkpoints are its block loop's snapshots, taken inside one run: each checkpoint's copies and
 * handshake overlap the next step (as in a hand-written loop), and a condition the application changes from inside a
 * step applies without leaving the run.
 */
class SkeletonCheckpointTest {
    private static final int PARTS = 4;
    private static final long STEPS = 12;

    @TempDir
    Path dir;

    @Test
    void checkpointEveryStep_handshakeOfEachComesAfterTheNextStepStarted_notBefore() throws Exception {
        List<RuntimeEvent> events = run("every-step", (sk, rank) -> s -> { }, CheckpointCondition.everySteps(1));

        assertThat(iterations(events, RuntimeEvent.Snapshotted.class)).as("a checkpoint at start and after every step")
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
        for (long k = 1; k < STEPS; k++) {
            int captured = index(events, RuntimeEvent.Snapshotted.class, k);
            int nextStep = index(events, RuntimeEvent.IterationStarted.class, k);
            int handshake = index(events, RuntimeEvent.Handshake.class, k);
            assertThat(captured).as("checkpoint %d captured before step %d", k, k).isLessThan(nextStep);
            assertThat(handshake).as("checkpoint %d's handshake waits for the end of step %d, not before it", k, k).isGreaterThan(nextStep);
        }
    }

    @Test
    void conditionChangedFromInsideAStep_appliesFromTheNextDecision_inTheSameRun() throws Exception {
        AtomicReferenceArray<Skeleton<Domain2D>> skeletons = new AtomicReferenceArray<>(2);
        List<RuntimeEvent> events = run("collaboration", (sk, rank) -> s -> {
            if (s == 5) { // every rank at the same point of its program: the paper's collaboration
                skeletons.get(rank).checkpointEvery(Schedule.every(4));
            }
        }, CheckpointCondition.everySteps(100), skeletons);

        assertThat(iterations(events, RuntimeEvent.Snapshotted.class))
                .as("at start; none of every 100 steps; from step 5 on, every 4th iteration; after the last step")
                .containsExactly(0L, 8L, 12L);
        assertThat(events).filteredOn(RuntimeEvent.RecoveredOnline.class::isInstance).isEmpty();
    }

    private List<RuntimeEvent> run(String job, BiFunction<Skeleton<Domain2D>, Integer, LongConsumer> hooks,
            CheckpointCondition condition) throws Exception {
        return run(job, hooks, condition, new AtomicReferenceArray<>(2));
    }

    /** Runs two ranks; returns rank 0's events. */
    private List<RuntimeEvent> run(String job, BiFunction<Skeleton<Domain2D>, Integer, LongConsumer> hooks,
            CheckpointCondition condition, AtomicReferenceArray<Skeleton<Domain2D>> skeletons) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.every(1))
                .with(EngineKeys.FT_FOLDER, dir.resolve(job));
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        try (InJvmCluster c = InJvmCluster.open(job, 2)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    LongConsumer hook = s -> hooks.apply(skeletons.get(rank), rank).accept(s);
                    try (Skeleton<Domain2D> sk = Skeleton.builder(HeatKernel.DOMAIN, PARTS, Partition.slabs(HeatKernel.DOMAIN, 0, 1),
                            new HeatKernel(STEPS, hook)).checkpointCondition(condition).parameters(p).group(c.group(rank))
                            .settings(Map.of("n", HeatKernel.N)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start()) {
                        skeletons.set(rank, sk);
                        sk.run();
                        return sk.digest();
                    }
                }));
            }
            String first = out.get(0).get(60, TimeUnit.SECONDS);
            assertThat(out.get(1).get(60, TimeUnit.SECONDS)).isEqualTo(first);
            pool.shutdownNow();
        }
        return List.copyOf(events);
    }

    private static List<Long> iterations(List<RuntimeEvent> events, Class<? extends RuntimeEvent> type) {
        return events.stream().filter(type::isInstance).map(SkeletonCheckpointTest::iteration).toList();
    }

    private static long iteration(RuntimeEvent e) {
        if (e instanceof RuntimeEvent.Snapshotted s) {
            return s.iteration();
        }
        if (e instanceof RuntimeEvent.Handshake h) {
            return h.iteration();
        }
        return ((RuntimeEvent.IterationStarted) e).iteration();
    }

    private static int index(List<RuntimeEvent> events, Class<? extends RuntimeEvent> type, long iteration) {
        for (int i = 0; i < events.size(); i++) {
            if (type.isInstance(events.get(i)) && iteration(events.get(i)) == iteration) {
                return i;
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " of iteration " + iteration + " in " + events);
    }
}
