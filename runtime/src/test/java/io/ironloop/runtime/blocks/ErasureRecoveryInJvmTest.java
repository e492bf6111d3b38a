package io.ironloop.runtime.blocks;

import io.ironloop.core.Schedule;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.runtime.event.RuntimeEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Losses recovered by the erasure-coded levels, or rolled back to disk when a group lost too many, bit-identical to no loss. */
class ErasureRecoveryInJvmTest {
    private static final long STEPS = 20;
    private static String expected;

    @TempDir
    Path dir;

    @BeforeAll
    static void failureFree(@TempDir Path clean) throws Exception {
        List<String> lines = InJvmBlockRuns.run("erasure-clean", parameters(BlockKeys.MemoryScheme.PARTNER, 1, clean), 4, Set.of(), -1,
                STEPS, new ArrayList<>());
        assertThat(lines).allMatch(s -> s.equals(lines.get(0)));
        expected = lines.get(0).replace("recoveries=0", "recoveries=1");
    }

    private static Parameters parameters(BlockKeys.MemoryScheme scheme, long diskEvery, Path folder) {
        return Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(4)).with(BlockKeys.DISK_EVERY, diskEvery == 0 ? Schedule.never() : Schedule.every(diskEvery))
                .with(BlockKeys.MEMORY_SCHEME, scheme).with(BlockKeys.ERASURE_K, 2L).with(BlockKeys.ERASURE_M, 2L)
                .with(io.ironloop.core.EngineKeys.FT_FOLDER, folder);
    }

    /** Runs with {@code crashed} dying at iteration 10; asserts every survivor ends bit-identical to no loss, recovered from {@code source}. */
    private void assertRecovered(BlockKeys.MemoryScheme scheme, int size, Set<Integer> crashed, RuntimeEvent.RecoverySource source,
            double memoryFactor) throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> lines = InJvmBlockRuns.run("erasure-" + scheme + "-" + crashed.stream().sorted().map(String::valueOf).reduce((a, b) -> a + "_" + b).orElse(""), parameters(scheme, 1, dir), size, crashed, 10,
                STEPS, events);
        for (int r = 0; r < size; r++) {
            assertThat(lines.get(r)).as("world rank %d", r).isEqualTo(crashed.contains(r) ? "crashed" : expected);
        }
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.OnlineProtection).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.OnlineProtection) e).memoryFactor()).isEqualTo(memoryFactor));
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).source()).isEqualTo(source));
    }

    @Test
    void xor_oneLossInEachOfTwoGroups_rebuiltInMemory() throws Exception {
        // XOR over k = 2: six ranks form the groups {0, 2, 4} and {1, 3, 5}; memory 1 + 2 (own) + 2 × 1/2 (parity)
        assertRecovered(BlockKeys.MemoryScheme.XOR, 6, Set.of(2, 3), RuntimeEvent.RecoverySource.MEMORY, 4.0);
    }

    @Test
    void xor_twoLossesInOneGroup_rollBackToDisk() throws Exception {
        assertRecovered(BlockKeys.MemoryScheme.XOR, 6, Set.of(2, 4), RuntimeEvent.RecoverySource.DISK, 4.0);
    }

    @Test
    void rs_mLossesInOneGroup_rebuiltInMemory() throws Exception {
        // RS(2, 2): eight ranks form {0, 2, 4, 6} and {1, 3, 5, 7}; memory 1 + 2 + 2 × 2/2
        assertRecovered(BlockKeys.MemoryScheme.RS, 8, Set.of(2, 6), RuntimeEvent.RecoverySource.MEMORY, 5.0);
    }

    @Test
    void rs_mPlusOneLossesInOneGroup_rollBackToDisk() throws Exception {
        assertRecovered(BlockKeys.MemoryScheme.RS, 8, Set.of(2, 4, 6), RuntimeEvent.RecoverySource.DISK, 5.0);
    }

    @Test
    void relaunch_aRanksDiskLinesGone_startsFreshBecauseParityLivesOnlyInMemory() throws Exception {
        // a first job of 10 iterations with XOR parity in memory leaves its disk lines (the last at iteration 10) in each folder
        Path intact = dir.resolve("intact");
        Path damaged = dir.resolve("damaged");
        for (Path folder : List.of(intact, damaged)) {
            InJvmBlockRuns.run("erasure-first-" + folder.getFileName(), parameters(BlockKeys.MemoryScheme.XOR, 1, folder), 6, Set.of(), -1,
                    10, new ArrayList<>());
        }
        removeOnceQuiet(damaged.resolve(io.ironloop.core.StoreCatalog.rankSeries(3)));

        List<RuntimeEvent> resumed = Collections.synchronizedList(new ArrayList<>());
        List<String> fromIntact = InJvmBlockRuns.run("erasure-relaunch-intact", parameters(BlockKeys.MemoryScheme.XOR, 1, intact), 6,
                Set.of(), -1, STEPS, resumed);
        List<RuntimeEvent> fresh = Collections.synchronizedList(new ArrayList<>());
        List<String> fromDamaged = InJvmBlockRuns.run("erasure-relaunch-damaged", parameters(BlockKeys.MemoryScheme.XOR, 1, damaged), 6,
                Set.of(), -1, STEPS, fresh);

        String clean = expected.replace("recoveries=1", "recoveries=0");
        assertThat(resumed).filteredOn(e -> e instanceof RuntimeEvent.Restored).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.Restored) e).iteration()).isEqualTo(10)); // the line the first job ended with
        assertThat(fromIntact).containsOnly(clean);
        // XOR parity could rebuild rank 3 from its group, but it lived in the first job's memory: every rank starts over
        assertThat(fresh).noneMatch(e -> e instanceof RuntimeEvent.Restored);
        assertThat(fromDamaged).containsOnly(clean);
    }

    /** Removes {@code dir} once the crashed ranks' background writers have left it alone (an in-JVM crash leaves them running). */
    private static void removeOnceQuiet(Path dir) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (java.nio.file.Files.exists(dir)) {
            Thread.sleep(300);
            try (var files = java.nio.file.Files.walk(dir)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            } catch (java.io.IOException e) {
                assertThat(System.nanoTime()).as("%s still being written to after 20 s: %s", dir, e).isLessThan(deadline);
            }
        }
    }
}
