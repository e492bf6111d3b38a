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
}
