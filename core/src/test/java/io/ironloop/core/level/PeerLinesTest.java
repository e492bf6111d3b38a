package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.CorruptCheckpointException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The catalog of disk lines the ranks exchange at a restart over node-local stores, and what a rank keeps of it. */
class PeerLinesTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    private static LineInfo line(int rank, long sequence, long bytes) {
        String series = StoreCatalog.rankSeries(rank);
        return new LineInfo(series, sequence, 10 * sequence, series + String.format("/line-%012d.ilc", sequence), bytes,
                "ab12", true, Set.of(), "job", rank, 4, java.time.Instant.ofEpochSecond(1_700_000_000L));
    }

    private static List<PeerLines.Listed> catalog() {
        return List.of(new PeerLines.Listed(1, line(1, 3, 4096), new long[] {-1, 4, 5}, ByteBuffer.wrap(new byte[] {7, 8, 9})),
                new PeerLines.Listed(2, line(2, 3, 2048), new long[] {6}, ByteBuffer.allocate(0)));
    }

    @Test
    void catalog_roundTrip_keepsEveryLineItsBlocksAndItsGroupRecord() {
        List<PeerLines.Listed> back = PeerLines.decode(PeerLines.encode(catalog()), "rank 1");
        assertThat(back).hasSize(2);
        assertThat(back.get(0).line()).isEqualTo(catalog().get(0).line());
        assertThat(back.get(0).rank()).isEqualTo(1);
        assertThat(back.get(0).blocks()).containsExactly(-1, 4, 5);
        assertThat(back.get(0).parity()).isEqualTo(ByteBuffer.wrap(new byte[] {7, 8, 9}));
        assertThat(back.get(1).blocks()).containsExactly(6);
        assertThat(back.get(1).parity().remaining()).isZero();
    }

    @Test
    void catalog_truncatedOrDamaged_isACorruptCheckpointNamingTheSender() {
        byte[] bytes = PeerLines.encode(catalog());
        Random random = new Random(9);
        for (int cut = 0; cut < bytes.length; cut += 1 + random.nextInt(7)) {
            byte[] truncated = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> PeerLines.decode(truncated, "rank 3")).as("cut at %d", cut)
                    .isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("sent by rank 3");
        }
        byte[] badMagic = bytes.clone();
        badMagic[0] ^= 1;
        assertThatThrownBy(() -> PeerLines.decode(badMagic, "rank 3")).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("bad magic");
    }

    @Test
    void fetch_onlyTheLinesThisStoreLacks_fromTheLowestRankListingThem_andADataFileOnlyWithItsRecordedSize() throws Exception {
        PeerLines peers = new PeerLines();
        peers.learn(1, catalog());
        peers.learn(3, List.of(catalog().get(1))); // rank 2's line is on two hosts: rank 1 listed it first
        Store local = Store.inMemory();
        LineInfo mine = catalog().get(0).line();
        try (Store.PendingFile f = local.create(mine.dataFile())) { // this store holds rank 1's line itself
            f.publish();
        }
        LineInfo other = catalog().get(1).line();
        assertThat(peers.missingFrom(Set.of(mine.dataFile()))).extracting(PeerLines.Listed::line).containsExactly(other);
        assertThat(peers.toFetch(List.of(mine, other), Map.of(), local)).isEqualTo(Map.of(1, Map.of(other.dataFile(), Set.of())));

        assertThatThrownBy(() -> peers.put(other.dataFile(), ByteBuffer.allocate(100))).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("arrived with 100 bytes from rank 1 but its commit record says 2048");
        peers.put(other.dataFile(), ByteBuffer.allocate(2048));
        assertThat(peers.storeOf(other, local)).isNotSameAs(local);
        assertThat(peers.storeOf(mine, local)).isSameAs(local);
        assertThat(peers.toFetch(List.of(other), Map.of(), local)).as("fetched once").isEmpty();
    }

    @Test
    void part_ofAFullLine_carriesOnlyTheEntriesAskedFor_checkedOnRead_andFailsClosedEverywhereElse() throws Exception {
        Store store = Store.directory(dir);
        DiskLevel disk = new DiskLevel(store, io.ironloop.core.EngineConfig.builder().jobId("part").rank(1, 2)
                .series(StoreCatalog.rankSeries(1)).build(), new byte[0], 1, io.ironloop.core.EngineListener.NONE);
        Random random = new Random(3);
        List<BlockImage> images = new java.util.ArrayList<>();
        for (long id = 4; id <= 6; id++) {
            byte[] bytes = new byte[300_000];
            random.nextBytes(bytes);
            images.add(BlockImage.of(id, bytes));
        }
        LevelChain chain = new LevelChain(List.of(disk));
        chain.write(new Snapshot(1, 10, images));
        chain.commit(10);
        disk.awaitDurable();
        LineInfo line = StoreCatalog.of(store).lines(StoreCatalog.rankSeries(1)).get(0);
        PeerLines peers = new PeerLines();
        peers.learn(0, List.of(new PeerLines.Listed(1, line, new long[] {4, 5, 6}, ByteBuffer.allocate(0))));
        Store elsewhere = Store.inMemory(); // the store of the rank that needs block 5 lacks the line
        Map<String, Set<String>> some = Map.of(line.dataFile(), Set.of("block-5"));
        assertThat(peers.toFetch(List.of(line), some, elsewhere)).isEqualTo(Map.of(0, some));

        ByteBuffer part = disk.file(line.dataFile(), Set.of("block-5"));
        assertThat((long) part.remaining()).as("a third of the line and its manifest").isBetween(300_000L, line.dataBytes() / 2);
        peers.putPart(line.dataFile(), part.duplicate(), Set.of("block-5"));
        Store read = peers.storeOf(line, elsewhere);
        assertThat(DiskLevel.readEntry(read, line, "block-5")).contains(images.get(1).bytes());
        assertThatThrownBy(() -> DiskLevel.readEntry(read, line, "block-4")).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("only some entries of this line were fetched");
        assertThat(peers.toFetch(List.of(line), some, elsewhere)).as("the part is held").isEmpty();
        assertThat(peers.toFetch(List.of(line), Map.of(), elsewhere)).as("the whole file is not")
                .isEqualTo(Map.of(0, Map.of(line.dataFile(), Set.of())));

        // a byte of block 5 damaged on the way: its chunk's CRC32C refuses it
        ByteBuffer damaged = ByteBuffer.allocate(part.remaining()).put(part.duplicate()).flip();
        damaged.put(damaged.remaining() / 2, (byte) (damaged.get(damaged.remaining() / 2) ^ 4));
        peers.putPart(line.dataFile(), damaged, Set.of("block-5"));
        assertThatThrownBy(() -> DiskLevel.readEntry(peers.storeOf(line, elsewhere), line, "block-5"))
                .isInstanceOf(io.ironloop.format.ChecksumMismatchException.class);
        // a part of a file of another size than its commit record says is refused
        ByteBuffer resized = ByteBuffer.allocate(part.remaining()).put(part.duplicate()).flip();
        resized.putLong(Integer.BYTES, line.dataBytes() + 1);
        assertThatThrownBy(() -> peers.putPart(line.dataFile(), resized, Set.of("block-5"))).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("commit record says " + line.dataBytes());
        disk.close();
        store.close();
    }
}
