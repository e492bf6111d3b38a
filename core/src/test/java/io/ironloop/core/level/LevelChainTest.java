package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.IronloopException;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LevelChainTest {

    /** A level that records what it sees and calls proceed the given number of times. */
    private static final class Recording implements Level {
        final String name;
        final int proceeds;
        final List<String> log;

        Recording(String name, int proceeds, List<String> log) {
            this.name = name;
            this.proceeds = proceeds;
            this.log = log;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void write(Chain chain) throws IOException {
            log.add(name + ":before");
            for (int i = 0; i < proceeds; i++) {
                chain.proceed();
            }
            log.add(name + ":after");
        }

        @Override
        public void commit(long iteration) {
            log.add(name + ":commit " + iteration);
        }

        @Override
        public void abort(long iteration) {
            log.add(name + ":abort " + iteration);
        }

        @Override
        public Map<Long, Long> holdings() {
            return Map.of();
        }

        @Override
        public Optional<BlockImage> read(long blockId, long iteration) {
            return Optional.empty();
        }

        @Override
        public double copiesInMemory() {
            return 2;
        }

        @Override
        public void close() {
        }
    }

    private static Snapshot snapshot(long iteration) {
        return new Snapshot(0, iteration, List.of(BlockImage.of(1, new byte[] {1, 2, 3})));
    }

    @Test
    void write_eachLevelWrapsTheNext_inOrder() throws IOException {
        List<String> log = new ArrayList<>();
        LevelChain chain = new LevelChain(List.of(new Recording("a", 1, log), new Recording("b", 1, log)));
        chain.write(snapshot(4));
        chain.commit(4);
        assertThat(log).containsExactly("a:before", "b:before", "b:after", "a:after", "a:commit 4", "b:commit 4");
        assertThat(chain.memoryFactor()).isEqualTo(5.0);
    }

    @Test
    void write_levelThatNeverProceeds_isNamed() {
        LevelChain chain = new LevelChain(List.of(new Recording("lazy", 0, new ArrayList<>())));
        assertThatThrownBy(() -> chain.write(snapshot(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'lazy' returned without calling proceed()");
    }

    @Test
    void write_levelThatProceedsTwice_isNamed() {
        LevelChain chain = new LevelChain(List.of(new Recording("eager", 2, new ArrayList<>()), new Recording("b", 1, new ArrayList<>())));
        assertThatThrownBy(() -> chain.write(snapshot(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'eager' called proceed() more than once");
    }

    @Test
    void read_nearestLevelFirst_fallsBackPastDamageAndAbsence() throws IOException {
        SelfMemoryLevel self = new SelfMemoryLevel();
        SelfMemoryLevel second = new SelfMemoryLevel();
        LevelChain chain = new LevelChain(List.of(self, second));
        byte[] bytes = {9, 8, 7};
        chain.write(new Snapshot(0, 3, List.of(BlockImage.of(5, bytes))));
        chain.commit(3);
        bytes[0] = 0; // the nearest copy is damaged in memory: its CRC no longer holds
        // both levels share the image object, so take a fresh one for the second level
        second.write(new Level.Chain() {
            @Override
            public Snapshot snapshot() {
                return new Snapshot(0, 3, List.of(BlockImage.of(5, new byte[] {9, 8, 7})));
            }

            @Override
            public void proceed() {
            }
        });
        second.commit(3);
        LevelChain.Restored r = chain.read(5, 3);
        assertThat(bytesOf(r.image())).containsExactly(9, 8, 7);
        assertThat(r.level()).isEqualTo("memory");
        assertThat(r.skipped()).singleElement().asString().contains("CRC32C");
        assertThatThrownBy(() -> chain.read(6, 3)).isInstanceOf(IronloopException.class).hasMessageContaining("block 6")
                .hasMessageContaining("not held");
    }

    @Test
    void blockImage_verified_refusesDamage() {
        byte[] bytes = {1, 2};
        BlockImage i = BlockImage.of(2, bytes);
        bytes[1] = 3;
        assertThatThrownBy(() -> i.verified("here")).isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("block 2");
    }

    @Test
    void selfMemory_abortKeepsTheCommittedSnapshot() throws IOException {
        SelfMemoryLevel self = new SelfMemoryLevel();
        LevelChain chain = new LevelChain(List.of(self));
        chain.write(snapshot(4));
        chain.commit(4);
        chain.write(snapshot(8));
        chain.abort(8);
        assertThat(self.holdings()).containsEntry(1L, 4L);
        assertThat(bytesOf(chain.read(1, 4).image())).containsExactly(1, 2, 3);
    }

    @Test
    void selfMemory_givesTheReplacedSnapshotsBuffersBack_neverTheCommittedOnes() throws IOException {
        io.ironloop.BufferPool pool = new io.ironloop.BufferPool(1 << 20);
        SelfMemoryLevel self = new SelfMemoryLevel(pool);
        LevelChain chain = new LevelChain(List.of(self));
        java.nio.ByteBuffer first = pool.take(3).put(new byte[] {1, 2, 3}).flip();
        chain.write(new Snapshot(0, 4, List.of(BlockImage.of(1, first))));
        chain.commit(4);
        assertThat(pool.keptBytes()).isZero();
        java.nio.ByteBuffer second = pool.take(3).put(new byte[] {4, 5, 6}).flip();
        chain.write(new Snapshot(0, 8, List.of(BlockImage.of(1, second))));
        chain.abort(8);
        assertThat(pool.keptBytes()).as("an aborted snapshot is not the level's to give back").isZero();
        chain.write(new Snapshot(0, 12, List.of(BlockImage.of(1, second))));
        chain.commit(12);
        assertThat(pool.keptBytes()).as("iteration 4's buffer").isEqualTo(3);
        assertThat(pool.take(3)).isSameAs(first);
        assertThat(bytesOf(chain.read(1, 12).image())).containsExactly(4, 5, 6);
    }

    private static byte[] bytesOf(BlockImage image) {
        byte[] out = new byte[image.length()];
        image.bytes().get(out);
        return out;
    }
}
