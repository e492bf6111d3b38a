package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.CorruptCheckpointException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PartnerLevelTest {

    private static Snapshot snapshotOf(int rank, long iteration, int blocks, int bytesEach) {
        Random random = new Random(rank * 31L + iteration);
        List<BlockImage> images = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            byte[] bytes = new byte[bytesEach + b]; // odd sizes, so frames cut images anywhere
            random.nextBytes(bytes);
            images.add(BlockImage.of(rank * 100L + b, bytes));
        }
        return new Snapshot(rank, iteration, images);
    }

    private static List<PartnerLevel> writeAll(Wires wires, long iteration, int blocks, int bytesEach) throws Exception {
        List<PartnerLevel> levels = new ArrayList<>();
        for (int r = 0; r < wires.size; r++) {
            PeerLink link = wires.link(r);
            levels.add(new PartnerLevel(() -> link, Placement.pairwise()));
        }
        return writeAll(wires, levels, iteration, blocks, bytesEach);
    }

    private static List<PartnerLevel> writeAll(Wires wires, List<PartnerLevel> levels, long iteration, int blocks, int bytesEach)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(wires.size);
        List<Future<?>> done = new ArrayList<>();
        for (int r = 0; r < wires.size; r++) {
            PartnerLevel level = levels.get(r);
            Snapshot s = snapshotOf(r, iteration, blocks, bytesEach);
            done.add(pool.submit(() -> {
                new LevelChain(List.of(level)).write(s);
                return null;
            }));
        }
        try {
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return levels;
    }

    @Test
    void write_copiesArriveWholeAtThePairwisePartner_acrossFrameBoundaries() throws Exception {
        Wires wires = new Wires(4, b -> b);
        // 3 blocks of about 0.7 MiB each: the 1 MiB frames cut through images
        List<PartnerLevel> levels = writeAll(wires, 8, 3, 700_000);
        levels.forEach(l -> l.commit(8));
        for (int r = 0; r < 4; r++) {
            int owner = (r + 2) % 4;
            assertThat(levels.get(r).ownersHeld()).containsExactly(owner);
            Snapshot expected = snapshotOf(owner, 8, 3, 700_000);
            for (BlockImage i : expected.images()) {
                assertThat(levels.get(r).read(i.blockId(), 8)).get().extracting(BlockImage::bytes).isEqualTo(i.bytes());
            }
            assertThat(levels.get(r).read(owner * 100L, 4)).isEmpty();
        }
    }

    @Test
    void write_aFrameDamagedInFlight_isRefusedOnArrival() {
        Wires wires = new Wires(2, b -> {
            if (b.length > 1000) {
                b[b.length / 2] ^= 1;
            }
            return b;
        });
        assertThatThrownBy(() -> writeAll(wires, 1, 2, 5000)).hasRootCauseInstanceOf(CorruptCheckpointException.class)
                .rootCause().hasMessageContaining("CRC32C");
    }

    @Test
    void abort_keepsThePreviousCommittedCopies() throws Exception {
        Wires wires = new Wires(2, b -> b);
        List<PartnerLevel> levels = writeAll(wires, 4, 1, 100);
        levels.forEach(l -> l.commit(4));
        writeAll(wires, levels, 8, 1, 100);
        levels.forEach(l -> l.abort(8));
        assertThat(wires.recycled).as("the aborted copies' buffers go back to the connections").hasValue(2);
        assertThat(levels.get(0).holdings()).containsExactly(java.util.Map.entry(100L, 4L));
        assertThat(levels.get(0).read(100, 4)).get().extracting(BlockImage::bytes).isEqualTo(snapshotOf(1, 4, 1, 100).images().get(0).bytes());
        writeAll(wires, levels, 12, 1, 100);
        levels.forEach(l -> l.commit(12));
        assertThat(levels.get(0).holdings()).containsExactly(java.util.Map.entry(100L, 12L));
        assertThat(wires.recycled).as("and the replaced committed ones, never the new").hasValue(4);
    }
}
