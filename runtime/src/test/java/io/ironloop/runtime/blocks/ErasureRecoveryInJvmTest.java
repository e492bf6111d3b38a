package io.ironloop.runtime.blocks;

import io.ironloop.core.Schedule;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.LevelKeys;
import io.ironloop.core.level.ParityRecord;
import io.ironloop.group.InJvmCluster;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkDescriptor;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntFunction;
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
                .with(EngineKeys.FT_FOLDER, folder);
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
    void relaunch_aRanksDiskLinesGone_rebuiltFromTheParityInItsGroupsLines() throws Exception {
        // a first job of 10 iterations with XOR parity leaves its disk lines (the newest at iteration 10, one before at 8)
        Path first = dir.resolve("first");
        InJvmBlockRuns.run("erasure-first-xor", parameters(BlockKeys.MemoryScheme.XOR, 1, first), 6, Set.of(), -1, 10, new ArrayList<>());
        Path gone = copy(first, dir.resolve("gone"));
        Path corrupt = copy(first, dir.resolve("corrupt"));
        // a replaced disk: every line of world rank 3 (group {1, 3, 5}) is gone
        removeOnceQuiet(gone.resolve(StoreCatalog.rankSeries(3)));
        assertResumedAt(BlockKeys.MemoryScheme.XOR, 6, gone, 10);

        // the same loss, and world rank 1's parity share of that line damaged: detected by its checksum, never used,
        // so line 10 cannot be rebuilt and every rank resumes from line 8
        removeLine(corrupt, 3, 10);
        damageParity(corrupt, 1, 10);
        assertResumedAt(BlockKeys.MemoryScheme.XOR, 6, corrupt, 8);
    }

    @Test
    void relaunch_rs_mRanksLinesGone_rebuilt_mPlusOneGone_previousLine() throws Exception {
        // RS(2, 2) over eight ranks: groups {0, 2, 4, 6} and {1, 3, 5, 7}
        Path first = dir.resolve("first");
        InJvmBlockRuns.run("erasure-first-rs", parameters(BlockKeys.MemoryScheme.RS, 1, first), 8, Set.of(), -1, 10, new ArrayList<>());
        Path twoGone = copy(first, dir.resolve("two-gone"));
        removeLine(twoGone, 2, 10);
        removeLine(twoGone, 6, 10);
        removeLine(twoGone, 3, 10); // and one in the other group
        assertResumedAt(BlockKeys.MemoryScheme.RS, 8, twoGone, 10);

        removeLine(first, 2, 10);
        removeLine(first, 4, 10);
        removeLine(first, 6, 10); // m + 1 = 3 of one group: the code cannot cover it
        assertResumedAt(BlockKeys.MemoryScheme.RS, 8, first, 8);
    }

    @Test
    void relaunch_nodeLocalStores_aHostsStoreGone_rebuiltFromItsGroupsOtherHosts_twoHostsGone_sharedLevelOrStartOver()
            throws Exception {
        // six ranks on three hosts (0 and 1 on host-0, …), each host its own store FT_FOLDER/host-K; XOR over k = 2;
        // every disk line also copied to a shared directory
        Path folder = dir.resolve("hosts");
        Path shared = dir.resolve("shared");
        IntFunction<Parameters> onHost = r -> parameters(BlockKeys.MemoryScheme.XOR, 1, folder)
                .with(BlockKeys.DISK_PER_HOST, true).with(BlockKeys.HOST, "host-" + r / 2);
        InJvmBlockRuns.run("erasure-hosts-first", r -> onHost.apply(r).with(LevelKeys.SHARED_FOLDER, shared), 6,
                Set.of(), -1, 10, new ArrayList<>(), InJvmCluster::group);
        assertThat(folder.resolve("host-1").resolve(StoreCatalog.rankSeries(2))).as("rank 2's lines on its host's store").isDirectory();
        assertThat(folder.resolve("host-0").resolve(StoreCatalog.rankSeries(2))).as("and only there").doesNotExist();
        assertThat(shared.resolve(StoreCatalog.rankSeries(2))).as("and copied to the shared level").isDirectory();
        Path twoGone = copy(folder, dir.resolve("two-gone"));
        IntFunction<Parameters> twoGoneOnHost = r -> onHost.apply(r).with(EngineKeys.FT_FOLDER, twoGone);

        // host-1's disk replaced: the lines of world ranks 2 and 3 are gone, one member of each group
        removeOnceQuiet(folder.resolve("host-1"));
        assertRelaunched(onHost, "one-host-gone", OptionalLong.of(10));

        // host-1's and host-2's: two members of each XOR group, more than its parity covers: the shared level has their
        // lines; without it, no line to resume from
        removeOnceQuiet(twoGone.resolve("host-1"));
        removeOnceQuiet(twoGone.resolve("host-2"));
        Path bare = copy(twoGone, dir.resolve("bare"));
        assertRelaunched(r -> twoGoneOnHost.apply(r).with(EngineKeys.FT_FOLDER, bare), "two-hosts-gone", OptionalLong.empty());
        assertRelaunched(r -> twoGoneOnHost.apply(r).with(LevelKeys.SHARED_FOLDER, shared), "two-hosts-gone-shared",
                OptionalLong.of(10));
    }

    @Test
    void nodeLocalStores_twoLossesInOneGroup_rollBackToDiskLinesFetchedFromTheirHosts() throws Exception {
        // as above, three hosts of two ranks with their own stores; world ranks 2 (host-1) and 4 (host-2) die together:
        // group {0, 2, 4} lost two members, so every survivor rolls back to disk, and the lost ranks' lines, on host-1
        // and host-2, reach their blocks' new owners from the survivors there (3 and 5)
        Path folder = dir.resolve("hosts");
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> lines = InJvmBlockRuns.run("erasure-hosts-online", r -> parameters(BlockKeys.MemoryScheme.XOR, 1, folder)
                .with(BlockKeys.DISK_PER_HOST, true).with(BlockKeys.HOST, "host-" + r / 2), 6, Set.of(2, 4), 10, STEPS, events,
                InJvmCluster::group);
        for (int r = 0; r < 6; r++) {
            assertThat(lines.get(r)).as("world rank %d", r).isEqualTo(r == 2 || r == 4 ? "crashed" : expected);
        }
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.RecoveredOnline).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.RecoveredOnline) e).source()).isEqualTo(RuntimeEvent.RecoverySource.DISK));
    }

    /** Relaunches ranks with their own parameters; asserts where they resumed and that they ended bit-identical to no loss. */
    private static void assertRelaunched(IntFunction<Parameters> parametersOf, String name, OptionalLong resumedAt)
            throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> lines = InJvmBlockRuns.run("erasure-relaunch-" + name, parametersOf, 6, Set.of(), -1, STEPS, events,
                InJvmCluster::group);
        assertThat(events.stream().filter(e -> e instanceof RuntimeEvent.Restored).mapToLong(e -> ((RuntimeEvent.Restored) e).iteration())
                .boxed().toList()).as(name).isEqualTo(resumedAt.stream().boxed().toList());
        assertThat(lines).containsOnly(expected.replace("recoveries=1", "recoveries=0"));
    }

    /** Relaunches over {@code folder}; asserts it resumed at {@code iteration} and ended bit-identical to a failure-free run. */
    private static void assertResumedAt(BlockKeys.MemoryScheme scheme, int size, Path folder, long iteration) throws Exception {
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        List<String> lines = InJvmBlockRuns.run("erasure-relaunch-" + folder.getFileName(), parameters(scheme, 1, folder), size, Set.of(),
                -1, STEPS, events);
        assertThat(events).filteredOn(e -> e instanceof RuntimeEvent.Restored).singleElement()
                .satisfies(e -> assertThat(((RuntimeEvent.Restored) e).iteration()).isEqualTo(iteration));
        assertThat(lines).containsOnly(expected.replace("recoveries=1", "recoveries=0"));
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(from.relativize(f).toString()));
            }
        }
        return to;
    }

    /** World rank {@code rank}'s committed line of {@code iteration}. */
    private static LineInfo lineOf(Path folder, int rank, long iteration) throws IOException {
        try (Store store = Store.directory(folder)) {
            return StoreCatalog.of(store).lines(StoreCatalog.rankSeries(rank)).stream().filter(l -> l.iteration() == iteration)
                    .findFirst().orElseThrow();
        }
    }

    /** Removes world rank {@code rank}'s line of {@code iteration}: its data file and its commit record. */
    private static void removeLine(Path folder, int rank, long iteration) throws IOException {
        String data = lineOf(folder, rank, iteration).dataFile();
        Files.delete(folder.resolve(data));
        Files.delete(folder.resolve(data.replaceAll("\\.ilc$", ".commit")));
    }

    /** Flips a byte of the parity shares in world rank {@code rank}'s line of {@code iteration}. */
    private static void damageParity(Path folder, int rank, long iteration) throws IOException {
        String data = lineOf(folder, rank, iteration).dataFile();
        ChunkDescriptor chunk;
        try (Store store = Store.directory(folder); SeekableByteChannel ch = store.openRead(data)) {
            chunk = CheckpointReader.open(ch, data, store::openRead).manifest().entry(ParityRecord.SHARES_ENTRY).orElseThrow().chunks()
                    .get(0);
        }
        assertThat(chunk.offset()).as("the shares are stored, not an elided zero chunk").isNotNegative();
        Path file = folder.resolve(chunk.file() == null ? data : chunk.file()); // null: the line's own file
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) chunk.offset() + 7] ^= 0x5a;
        Files.write(file, bytes);
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
