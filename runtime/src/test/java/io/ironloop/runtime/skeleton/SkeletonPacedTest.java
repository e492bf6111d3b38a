package io.ironloop.runtime.skeleton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.internal.blocks.HaloExchange;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routing plan's paced mode ({@link Skeleton.Builder#paced}): on 4 ranks, where every part exchanges with the 3
 * others (the skeleton's all-to-all layout), no rank ever has more transfers open than the limit, unpaced ones reach
 * 3, and the results are the plain loop's bits either way.
 */
class SkeletonPacedTest {
    private static final int RANKS = 4;
    private static final long STEPS = 12;

    @TempDir
    Path dir;

    /** Runs the heat skeleton on {@link #RANKS} ranks; returns the digest and fills {@code mostOpen} per rank. */
    private String run(String job, int paced, int[] mostOpen, AtomicInteger transfers, double[][] field) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(EngineKeys.FT_FOLDER, dir.resolve(job));
        Partition slabs = Partition.slabs(HeatKernel.DOMAIN, 0, 1);
        ExecutorService pool = Executors.newFixedThreadPool(RANKS);
        try (InJvmCluster c = InJvmCluster.open(job, RANKS)) {
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    AtomicInteger most = new AtomicInteger();
                    Skeleton.Builder<Domain2D> b = Skeleton.builder(HeatKernel.DOMAIN, RANKS, slabs, new HeatKernel(STEPS, s -> { }))
                            .checkpointCondition(CheckpointCondition.everySteps(STEPS)).parameters(p).settings(Map.of("n", HeatKernel.N))
                            .group(new TransferCountingGroup(c.group(rank), HaloExchange.TAG, most, transfers));
                    if (paced > 0) {
                        b.paced(paced);
                    }
                    try (Skeleton<Domain2D> sk = b.start()) {
                        sk.run();
                        String digest = sk.digest();
                        sk.domains().forEach((part, d) -> {
                            Box box = slabs.possessed(part, RANKS, STEPS - 1);
                            for (int y = box.lo(0); y < box.hi(0); y++) {
                                for (int x = box.lo(1); x < box.hi(1); x++) {
                                    field[y][x] = d.get(y, x);
                                }
                            }
                        });
                        mostOpen[rank] = most.get();
                        return digest;
                    }
                }));
            }
            List<String> digests = new ArrayList<>();
            for (Future<String> f : out) {
                digests.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(digests).containsOnly(digests.get(0));
            return digests.get(0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void paced_oneRankAtATime_neverMoreOpenTransfers_sameBitsAsUnpacedAndThePlainLoop() throws Exception {
        int[] unpacedOpen = new int[RANKS];
        int[] pacedOpen = new int[RANKS];
        AtomicInteger unpacedTransfers = new AtomicInteger();
        AtomicInteger pacedTransfers = new AtomicInteger();
        double[][] field = new double[HeatKernel.N + 2][HeatKernel.N + 2];
        String unpaced = run("unpaced", 0, unpacedOpen, unpacedTransfers, new double[HeatKernel.N + 2][HeatKernel.N + 2]);
        String paced = run("paced", 1, pacedOpen, pacedTransfers, field);

        assertThat(paced).isEqualTo(unpaced);
        double[][] ref = HeatKernel.reference(STEPS);
        for (int y = 1; y <= HeatKernel.N; y++) {
            for (int x = 1; x <= HeatKernel.N; x++) {
                assertThat(Double.doubleToRawLongBits(field[y][x])).as("cell (%d, %d)", y, x).isEqualTo(Double.doubleToRawLongBits(ref[y][x]));
            }
        }
        assertThat(pacedTransfers.get()).as("the same messages moved").isEqualTo(unpacedTransfers.get()).isPositive();
        assertThat(unpacedOpen).as("unpaced: each rank sends to its 3 peers at once").containsOnly(RANKS - 1);
        assertThat(pacedOpen).as("paced: one transfer open at a time").containsOnly(1);
    }

    @Test
    void paced_belowOne_refused() {
        assertThatThrownBy(() -> Skeleton.builder(HeatKernel.DOMAIN, RANKS, Partition.slabs(HeatKernel.DOMAIN, 0, 1),
                new HeatKernel(STEPS, s -> { })).paced(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not 0");
    }
}
