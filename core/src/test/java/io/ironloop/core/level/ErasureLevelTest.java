package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import io.ironloop.core.LineInfo;
import io.ironloop.core.StoreCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ErasureLevelTest {
    private static final long ITERATION = 8;

    private static Snapshot snapshotOf(int rank, int blocks, int bytesEach) {
        Random random = new Random(rank * 31L + ITERATION);
        List<BlockImage> images = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            byte[] bytes = new byte[bytesEach + b * 7 + rank]; // stream lengths differ between members: padding matters
            random.nextBytes(bytes);
            images.add(BlockImage.of(rank * 100L + b, bytes));
        }
        return new Snapshot(rank, ITERATION, images);
    }

    /** Every rank writes and commits its snapshot through its own level. */
    private static List<ErasureLevel> writeAll(Wires wires, Function<Supplier<PeerLink>, ErasureLevel> make, int blocks, int bytesEach)
            throws Exception {
        return writeAll(wires, make, blocks, bytesEach, new HashMap<>());
    }

    /** As above; {@code lines} receives what each rank's disk line would hold: its images and its parity entries. */
    private static List<ErasureLevel> writeAll(Wires wires, Function<Supplier<PeerLink>, ErasureLevel> make, int blocks, int bytesEach,
            Map<Integer, Map<String, ByteBuffer>> lines) throws Exception {
        List<ErasureLevel> levels = new ArrayList<>();
        for (int r = 0; r < wires.size; r++) {
            PeerLink link = wires.link(r);
            levels.add(make.apply(() -> link));
        }
        ExecutorService pool = Executors.newFixedThreadPool(wires.size);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < wires.size; r++) {
                ErasureLevel level = levels.get(r);
                Snapshot s = snapshotOf(r, blocks, bytesEach);
                Map<String, ByteBuffer> line = new HashMap<>();
                lines.put(r, line);
                done.add(pool.submit(() -> {
                    new LevelChain(List.of(level, new LineCapture(level, line))).write(s);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        levels.forEach(l -> l.commit(ITERATION));
        return levels;
    }

    /** The survivors rebuild after losing {@code lost}, each through a link of the shrunk group. */
    private static void rebuildAll(Wires wires, List<ErasureLevel> levels, Set<Integer> lost) throws Exception {
        rebuildAll(wires, levels, lost, java.util.stream.IntStream.range(0, wires.size).filter(r -> !lost.contains(r)).toArray());
    }

    /** The ranks {@code survivors} rebuild, told of the losses {@code lost} (earlier losses are simply absent). */
    private static void rebuildAll(Wires wires, List<ErasureLevel> levels, Set<Integer> lost, int[] survivors) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(survivors.length);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < survivors.length; i++) {
                PeerLink link = wires.link(i, survivors);
                ErasureLevel level = levels.get(survivors[i]);
                done.add(pool.submit(() -> level.rebuild(lost, ITERATION, link)));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Which survivor holds each lost rank's images now, checked byte for byte against the original. */
    private static void assertRebuiltOn(List<ErasureLevel> levels, int lost, int holder, int blocks, int bytesEach) throws Exception {
        for (BlockImage original : snapshotOf(lost, blocks, bytesEach).images()) {
            assertThat(levels.get(holder).holdings()).containsEntry(original.blockId(), ITERATION);
            assertThat(levels.get(holder).read(original.blockId(), ITERATION)).get().isEqualTo(original);
        }
    }

    /** Blocks the survivors of losing {@code lost} hold. */
    private static long heldBlocks(List<ErasureLevel> levels, Set<Integer> lost) throws Exception {
        long n = 0;
        for (int r = 0; r < levels.size(); r++) {
            n += lost.contains(r) ? 0 : levels.get(r).holdings().size();
        }
        return n;
    }

    /** Stands for the disk level after an erasure level: keeps what a disk line of the snapshot would hold. */
    private record LineCapture(ErasureLevel erasure, Map<String, ByteBuffer> line) implements Level {
        @Override
        public void write(Chain chain) {
            Snapshot s = chain.snapshot();
            s.images().forEach(i -> line.put(DiskLevel.entryName(i.blockId()), copy(i.bytes())));
            erasure.parityOf(s.iteration()).ifPresent(p -> { // absent when the encoding failed
                line.put(ParityRecord.GROUP_ENTRY, ByteBuffer.wrap(p.encode()));
                ByteBuffer shares = ByteBuffer.allocate(Arrays.stream(p.shares()).mapToInt(ByteBuffer::remaining).sum());
                Arrays.stream(p.shares()).forEach(b -> shares.put(b.duplicate()));
                line.put(ParityRecord.SHARES_ENTRY, shares.flip());
            });
            try {
                chain.proceed();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private static ByteBuffer copy(ByteBuffer b) {
            return ByteBuffer.allocate(b.remaining()).put(b.duplicate()).flip();
        }

        @Override
        public String name() {
            return "capture";
        }

        @Override
        public void commit(long iteration) {
        }

        @Override
        public void abort(long iteration) {
        }

        @Override
        public Map<Long, Long> holdings() {
            return Map.of();
        }

        @Override
        public java.util.Optional<BlockImage> read(long blockId, long iteration) {
            return java.util.Optional.empty();
        }

        @Override
        public double copiesInMemory() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    private static LineInfo lineInfo(int rank) {
        return new LineInfo(StoreCatalog.rankSeries(rank), 1, ITERATION, StoreCatalog.rankSeries(rank) + "/line-000000000001.ilc", 0,
                "f", true, Set.of(), "job", rank, 4, java.time.Instant.EPOCH);
    }

    /** A relaunch's rebuild from the lines of the members in {@code survivors}, with what {@link #writeAll} captured. */
    private static LineRebuild relaunchRebuild(Map<Integer, Map<String, ByteBuffer>> lines, int... survivors) {
        Map<Integer, LineInfo> present = new HashMap<>();
        for (int r : survivors) {
            present.put(r, lineInfo(r));
        }
        ParityRecord group = ParityRecord.decode(lines.get(survivors[0]).get(ParityRecord.GROUP_ENTRY), "test");
        return new LineRebuild(group, present, (line, entry) -> java.util.Optional.ofNullable(lines.get(line.rank()).get(entry))
                .map(ByteBuffer::duplicate), "memory");
    }

    @Test
    void relaunch_rs_mMembersLinesGone_rebuiltFromTheOthersLines_aDamagedShareNeverUsed() throws Exception {
        // RS(2, 2) over one group {0, 1, 2, 3}: ranks 0 and 2 lose their lines; 1 and 3 keep theirs, with parity
        Map<Integer, Map<String, ByteBuffer>> lines = new HashMap<>();
        writeAll(new Wires(4, b -> b), l -> ErasureLevel.reedSolomon(l, 2, 2), 3, 70_000, lines).forEach(ErasureLevel::close);
        Map<Integer, Snapshot> rebuilt = relaunchRebuild(lines, 1, 3).rebuild(Set.of());
        assertThat(rebuilt.keySet()).containsExactlyInAnyOrder(0, 2);
        for (int r : List.of(0, 2)) {
            assertThat(rebuilt.get(r).images()).containsExactlyElementsOf(snapshotOf(r, 3, 70_000).images());
        }
        // a line listed as damaged counts as lost: three of four is more than the code covers
        assertThatThrownBy(() -> relaunchRebuild(lines, 1, 3).rebuild(Set.of(1))).hasMessageContaining("more than its 2 parity");

        // one of rank 3's shares damaged after it was encoded: its CRC32C refuses it, and two losses leave no other
        ByteBuffer shares = lines.get(3).get(ParityRecord.SHARES_ENTRY);
        shares.put(100, (byte) (shares.get(100) ^ 0x10));
        assertThatThrownBy(() -> relaunchRebuild(lines, 1, 3).rebuild(Set.of())).hasMessageContaining("fewer than 2 intact symbols")
                .hasMessageContaining("world rank 3's parity share").hasMessageContaining("fails its CRC32C");
        // with one loss, the damaged share is not needed: the other symbols rebuild rank 0
        Map<Integer, Snapshot> one = relaunchRebuild(lines, 1, 2, 3).rebuild(Set.of());
        assertThat(one.get(0).images()).containsExactlyElementsOf(snapshotOf(0, 3, 70_000).images());
    }

    @Test
    void parityRecord_roundTrips_andRefusesEveryDamagedOrTruncatedForm() throws Exception {
        Map<Integer, Map<String, ByteBuffer>> lines = new HashMap<>();
        writeAll(new Wires(3, b -> b), l -> ErasureLevel.xor(l, 2), 2, 500, lines).forEach(ErasureLevel::close);
        ByteBuffer bytes = lines.get(1).get(ParityRecord.GROUP_ENTRY);
        ParityRecord r = ParityRecord.decode(bytes, "test");
        assertThat(r.code()).isEqualTo("xor");
        assertThat(r.members()).containsExactly(0, 1, 2);
        assertThat(r.parityShards()).isEqualTo(1);
        assertThat(r.blocksOf(2)).containsExactly(200, 201);
        assertThat(r.encode()).isEqualTo(bytes.array());
        byte[] good = bytes.array();
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 << (i % 8));
            assertThatThrownBy(() -> ParityRecord.decode(ByteBuffer.wrap(bad), "f")).as("byte %d flipped", i)
                    .isInstanceOf(io.ironloop.format.CorruptCheckpointException.class);
        }
        for (int len = 0; len < good.length; len++) {
            int n = len;
            assertThatThrownBy(() -> ParityRecord.decode(ByteBuffer.wrap(good, 0, n), "f")).as("%d bytes", n)
                    .isInstanceOf(io.ironloop.format.CorruptCheckpointException.class);
        }
    }

    @Test
    void groupsOf_unknownHosts_stridedGroups_remainderSpread() {
        List<String> none = java.util.Collections.nCopies(8, "");
        assertThat(ErasureLevel.groupsOf(none, 4)).containsExactly(new int[] {0, 2, 4, 6}, new int[] {1, 3, 5, 7});
        assertThat(ErasureLevel.groupsOf(java.util.Collections.nCopies(10, ""), 4)).extracting(g -> g.length).containsExactly(5, 5);
        assertThat(ErasureLevel.groupsOf(java.util.Collections.nCopies(3, ""), 4)).containsExactly(new int[] {0, 1, 2});
    }

    @Test
    void groupsOf_knownHosts_membersOnDifferentHosts() {
        // consecutive ranks per host, four hosts of two ranks: every group of four spans four hosts
        List<String> hosts = List.of("a", "a", "b", "b", "c", "c", "d", "d");
        for (int[] g : ErasureLevel.groupsOf(hosts, 4)) {
            assertThat(Arrays.stream(g).mapToObj(hosts::get).distinct().count()).as(Arrays.toString(g)).isEqualTo(4);
        }
    }

    @Test
    void xor_oneLossInEachOfTwoGroups_bothRebuilt_acrossChunkBoundaries() throws Exception {
        Wires wires = new Wires(6, b -> b);
        // groups {0, 2, 4} and {1, 3, 5}; 3 images of ~1.5 MB: segments of ~2.3 MB travel in several chunks
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.xor(l, 2), 3, 1_500_000);
        assertThat(levels.get(0).copiesInMemory()).isEqualTo(1.0);
        rebuildAll(wires, levels, Set.of(0, 3));
        assertRebuiltOn(levels, 0, 2, 3, 1_500_000);
        assertRebuiltOn(levels, 3, 1, 3, 1_500_000);
        assertThat(heldBlocks(levels, Set.of(0, 3))).isEqualTo(6);
        levels.forEach(ErasureLevel::close);
    }

    /**
     * The pipeline (each codeword encoded by its first parity holder, the other rows forwarded, credits every chunk) gives
     * exactly the shares of {@link ErasureCode#encode} over the members' padded streams, over more chunks than the window.
     */
    @Test
    void rs_sharesEqualTheCodesEncodingOfTheStreams_overMoreChunksThanTheCreditWindow() throws Exception {
        int n = 5;
        int blocks = 2;
        int bytesEach = 13 * ErasureLevel.CHUNK / 2; // with RS(3, 2), segments of 13 / 3 chunks: 5 chunks
        List<ErasureLevel> levels = writeAll(new Wires(n, b -> b), l -> ErasureLevel.reedSolomon(l, 3, 2), blocks, bytesEach);
        ErasureCode code = ErasureCode.cauchy(3, 2);
        byte[][] streams = new byte[n][];
        for (int r = 0; r < n; r++) {
            StripeLayout layout = new StripeLayout(snapshotOf(r, blocks, bytesEach));
            ByteBuffer all = ByteBuffer.allocate((int) layout.length());
            layout.pieces(0, layout.length(), Integer.MAX_VALUE).forEach(piece -> all.put(piece.duplicate()));
            streams[r] = all.array();
        }
        int segment = new ErasureLevel.Group(new int[n], new int[n], code, Arrays.stream(streams).mapToLong(b -> b.length).toArray(),
                new long[n][]).segment;
        assertThat((segment + ErasureLevel.CHUNK - 1) / ErasureLevel.CHUNK).as("chunks per segment").isGreaterThan(StripeEncoder.WINDOW);
        for (int r = 0; r < n; r++) { // codeword r: data from positions r + 2 + t, parity on r and r + 1
            byte[][] data = new byte[3][segment];
            for (int t = 0; t < 3; t++) {
                byte[] stream = streams[(r + 2 + t) % n];
                int from = Math.min(stream.length, t * segment);
                System.arraycopy(stream, from, data[t], 0, Math.min(segment, stream.length - from));
            }
            byte[][] parity = new byte[2][segment];
            code.encode(data, parity, 0, segment);
            for (int i = 0; i < 2; i++) {
                ByteBuffer share = levels.get((r + i) % n).committedShares().get(i);
                byte[] held = new byte[segment];
                share.duplicate().clear().get(held);
                assertThat(held).as("share %d of codeword %d", i, r).isEqualTo(parity[i]);
            }
        }
        levels.forEach(ErasureLevel::close);
    }

    @Test
    void xor_twoLossesInOneGroup_nothingRebuilt() throws Exception {
        Wires wires = new Wires(6, b -> b);
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.xor(l, 2), 2, 5000);
        rebuildAll(wires, levels, Set.of(0, 2));
        assertThat(heldBlocks(levels, Set.of(0, 2))).isZero();
    }

    @Test
    void rs_mLossesInAGroupRebuilt_mPlusOneNot() throws Exception {
        Wires wires = new Wires(8, b -> b);
        // RS(2, 2): groups {0, 2, 4, 6} and {1, 3, 5, 7}
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.reedSolomon(l, 2, 2), 2, 30_000);
        assertThat(levels.get(0).copiesInMemory()).isEqualTo(2.0);
        rebuildAll(wires, levels, Set.of(2, 6));
        assertRebuiltOn(levels, 2, 0, 2, 30_000);
        assertRebuiltOn(levels, 6, 0, 2, 30_000);
        rebuildAll(wires, levels, Set.of(0, 2, 6));
        assertThat(heldBlocks(levels, Set.of(0, 2, 6))).isZero();
    }

    @Test
    void aDamagedParityShare_isDetectedAndNeverUsed() throws Exception {
        // XOR over one group {0, 1, 2}: rank 0's segments are in the codewords whose parity ranks 1 and 2 hold
        Wires wires = new Wires(3, b -> b);
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.xor(l, 2), 2, 5000);
        ByteBuffer share = levels.get(1).committedShares().get(0);
        share.put(17, (byte) (share.get(17) ^ 0x40));
        rebuildAll(wires, levels, Set.of(0));
        assertThat(heldBlocks(levels, Set.of(0))).as("with its parity damaged, XOR cannot rebuild: the next level must").isZero();

        // RS(2, 2) over {0, 1, 2, 3}: the damaged share is skipped and another intact one used instead
        Wires rsWires = new Wires(4, b -> b);
        List<ErasureLevel> rs = writeAll(rsWires, l -> ErasureLevel.reedSolomon(l, 2, 2), 2, 5000);
        for (ByteBuffer s : rs.get(1).committedShares()) {
            s.put(3, (byte) (s.get(3) ^ 1));
        }
        rebuildAll(rsWires, rs, Set.of(0));
        assertRebuiltOn(rs, 0, 1, 2, 5000);
    }

    @Test
    void rs_aSecondLossBeforeTheNextSnapshot_countsTheFirstToo() throws Exception {
        Wires wires = new Wires(8, b -> b);
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.reedSolomon(l, 2, 2), 2, 3000);
        rebuildAll(wires, levels, Set.of(4));
        assertRebuiltOn(levels, 4, 0, 2, 3000);
        // rank 4 is gone from the group but only rank 6 is reported lost now: both are rebuilt from the same stripe
        rebuildAll(wires, levels, Set.of(6), new int[] {0, 1, 2, 3, 5, 7});
        assertRebuiltOn(levels, 4, 0, 2, 3000);
        assertRebuiltOn(levels, 6, 0, 2, 3000);
    }

    @Test
    void write_aSegmentDamagedInFlight_isRefusedOnArrival_neverEncoded() {
        Wires wires = new Wires(3, b -> {
            if (b.length > 1000) {
                b[b.length / 2] ^= 1;
            }
            return b;
        });
        assertThatThrownBy(() -> writeAll(wires, l -> ErasureLevel.xor(l, 2), 2, 5000))
                .hasRootCauseInstanceOf(io.ironloop.format.CorruptCheckpointException.class).rootCause()
                .hasMessageContaining("fails its CRC32C on arrival");
        // RS(2, 2): the encoders refuse the segments, and the holders the shares their encoders made from them
        assertThatThrownBy(() -> writeAll(new Wires(4, wires.wire), l -> ErasureLevel.reedSolomon(l, 2, 2), 2, 5000))
                .hasRootCauseInstanceOf(io.ironloop.format.CorruptCheckpointException.class).rootCause()
                .hasMessageContaining("CRC32C on arrival");
    }

    @Test
    void abort_keepsTheCommittedStripe() throws Exception {
        Wires wires = new Wires(3, b -> b);
        List<ErasureLevel> levels = writeAll(wires, l -> ErasureLevel.xor(l, 2), 1, 100);
        levels.forEach(l -> l.abort(ITERATION + 4));
        rebuildAll(wires, levels, Set.of(2));
        assertRebuiltOn(levels, 2, 0, 1, 100);
    }
}
