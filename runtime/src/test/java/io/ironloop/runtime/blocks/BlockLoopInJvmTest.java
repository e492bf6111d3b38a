package io.ironloop.runtime.blocks;

import io.ironloop.core.Schedule;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockLoopInJvmTest {
    private static final Grid2D GRID = new Grid2D(4, 4, false, false);
    private static final long STEPS = 30;

    @TempDir
    Path dir;

    private List<String> run(int size, int spares, int crashRank, long crashAt, Path folder, List<RuntimeEvent> events) throws Exception {
        return run(size, spares, crashRank < 0 ? Set.of() : Set.of(crashRank), crashAt, 2L, folder, events);
    }

    private List<String> run(int size, int spares, Set<Integer> crashRanks, long crashAt, long diskEvery, Path folder,
            List<RuntimeEvent> events) throws Exception {
        return run(size, spares, crashRanks, crashAt, diskEvery, folder, events, InJvmCluster::group);
    }

    private List<String> run(int size, int spares, Set<Integer> crashRanks, long crashAt, long diskEvery, Path folder,
            List<RuntimeEvent> events, java.util.function.BiFunction<InJvmCluster, Integer, ProcessGroup> groupOf) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(4)).with(BlockKeys.DISK_EVERY, diskEvery == 0 ? Schedule.never() : Schedule.every(diskEvery))
                .with(BlockKeys.SPARES, (long) spares).with(io.ironloop.core.EngineKeys.FT_FOLDER, folder);
        return InJvmBlockRuns.run("blocks-" + crashRanks.size() + "-" + spares, p, size, crashRanks, crashAt, STEPS, events, groupOf);
    }

    @Test
    void crashOfOneRank_recoveredOnline_bitIdentical() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(4, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        assertThat(clean).allMatch(s -> s.equals(clean.get(0)));
        List<String> failed = run(4, 0, 2, 7, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, expected, "crashed", expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).iteration()).isEqualTo(4));
    }

    /**
     * The holder of a lost rank's copy sends it damaged (a byte flipped on the way): the new owner's CRC32C check
     * refuses it, and every survivor rolls back to the disk line instead — bit-identical, never restored from the
     * damaged bytes.
     */
    @Test
    void damagedTransferDuringRecovery_refused_rollBackToDisk_bitIdentical() throws Exception {
        int recoveryTag = io.ironloop.core.level.PartnerLevel.TAG_BASE - 0x0100_0000 + 1; // OnlineRecovery's transfers
        List<String> clean = run(4, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> results = run(4, 0, Set.of(1), 7, 1L, dir.resolve("damaged"), events,
                (c, rank) -> CrashingGroup.damaging(c.group(rank), c, recoveryTag));
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(results).containsExactly(expected, "crashed", expected, expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).source()).isEqualTo(RuntimeEvent.RecoverySource.DISK));
    }

    @Test
    void crashWithSpare_spareAdopts_bitIdentical() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(3, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        List<String> failed = run(4, 1, 1, 9, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, "crashed", expected, expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).sparesUsed()).isEqualTo(1));
    }

    @Test
    void twoRanksThatAreNotPartnersCrashTogether_recoveredOnlineFromMemory() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(4, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        // pairwise with 4 ranks: 0↔2 and 1↔3 keep each other's copies, so 1 and 2 lose nothing together
        List<String> failed = run(4, 0, Set.of(1, 2), 10, 2L, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, "crashed", "crashed", expected);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).source()).isEqualTo(RuntimeEvent.RecoverySource.MEMORY));
    }

    @Test
    void aRankAndItsPartnerCrashTogether_rollBackToDisk_bitIdentical() throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> clean = run(4, 0, -1, -1, dir.resolve("clean"), new ArrayList<>());
        List<String> failed = run(4, 0, Set.of(1, 3), 10, 1L, dir.resolve("failed"), events);
        String expected = clean.get(0).replace("recoveries=0", "recoveries=1");
        assertThat(failed).containsExactly(expected, "crashed", expected, "crashed");
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).source()).isEqualTo(RuntimeEvent.RecoverySource.DISK));
    }

    @Test
    void aRankAndItsPartnerCrashWithoutDisk_everySurvivorAbortsNamingTheLostRanks() throws Exception {
        List<String> failed = run(4, 0, Set.of(1, 3), 10, 0L, dir.resolve("failed"), new ArrayList<>());
        assertThat(failed.get(1)).isEqualTo("crashed");
        assertThat(failed.get(3)).isEqualTo("crashed");
        assertThat(List.of(failed.get(0), failed.get(2))).allSatisfy(s -> assertThat(s).startsWith("failed: ")
                .contains("world ranks [1, 3]").contains("no disk level"));
    }

    @Test
    void memoryBudgetTooSmall_refusedAtStartWithTheFigures_onEveryRank() throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.MEMORY_BUDGET, 20_000L).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster c = InJvmCluster.open("budget", 2)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p)
                            .group(c.group(rank)).start()) {
                        return "started with factor " + loop.memoryFactor();
                    } catch (io.ironloop.ConfigurationException e) {
                        return e.getMessage();
                    }
                }));
            }
            for (Future<String> f : out) {
                // 8 blocks of 10 × 10 doubles per rank: 6400 bytes × 5 = 32000 > 20000
                assertThat(f.get(30, TimeUnit.SECONDS)).contains("32000 bytes").contains("state 6400 bytes × memory factor 5")
                        .contains("MEMORY_BUDGET is 20000");
            }
            pool.shutdownNow();
        }
    }

    @Test
    void directMemoryReservedElsewhereInTheJvm_inMemoryCopiesRefusedAtStart_andGivenBackOnClose() throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        long before = io.ironloop.DirectMemory.reserved();
        // every rank's copies: 8 blocks of 10 × 10 doubles, 6400 bytes × (memory factor 5 - 1) = 25600 bytes
        try (io.ironloop.DirectMemory.Reservation others = io.ironloop.DirectMemory.reserve("another engine's staging",
                io.ironloop.DirectMemory.limit() - before - 10_000, "none")) {
            assertThat(startBoth(p)).allSatisfy(m -> assertThat(m).contains("the in-memory copies of world rank")
                    .contains("needs 25600 bytes of direct memory").contains("MaxDirectMemorySize"));
        }
        assertThat(io.ironloop.DirectMemory.reserved()).as("the refused ranks reserved nothing").isEqualTo(before);
        assertThat(startBoth(p)).allSatisfy(m -> assertThat(m).startsWith("started"));
        assertThat(io.ironloop.DirectMemory.reserved()).as("closed loops give their copies back").isEqualTo(before);
    }

    /** Starts and closes a block loop on each of 2 in-JVM ranks: what each said ("started …" or its refusal). */
    private static List<String> startBoth(Parameters p) throws Exception {
        try (InJvmCluster c = InJvmCluster.open("direct", 2)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> out = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p)
                            .group(c.group(rank)).start()) {
                        return "started with factor " + loop.memoryFactor();
                    } catch (io.ironloop.ConfigurationException e) {
                        return e.getMessage();
                    }
                }));
            }
            List<String> said = new ArrayList<>();
            for (Future<String> f : out) {
                said.add(f.get(30, TimeUnit.SECONDS));
            }
            pool.shutdownNow();
            return said;
        }
    }
}
