package io.ironloop.format;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.ironloop.format.Checkpoints.open;
import static io.ironloop.format.Checkpoints.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DifferentialTest {
    private static final WriterOptions HASHED = new WriterOptions(4096, 3, true);
    private static final int CHUNK = HASHED.chunkSize();
    private static final EntryHeader U = new EntryHeader("u", ElementType.DOUBLE, new long[] {10 * 512 + 3}, Scope.LOCAL, Codec.NONE);
    private static final EntryHeader V = new EntryHeader("v", ElementType.INT, new long[] {4 * 1024}, Scope.LOCAL, Codec.ZSTD);

    private static Map<EntryHeader, ByteBuffer> state(ByteBuffer u, ByteBuffer v) {
        Map<EntryHeader, ByteBuffer> m = new LinkedHashMap<>();
        m.put(U, u);
        m.put(V, v);
        return m;
    }

    private static ByteBuffer touch(ByteBuffer b, int... chunks) {
        ByteBuffer copy = ByteBuffer.allocate(b.remaining()).put(b.duplicate()).flip();
        for (int c : chunks) {
            copy.put(c * CHUNK + 5, (byte) (copy.get(c * CHUNK + 5) + 1));
        }
        return copy;
    }

    @Test
    void writeEntry_unchangedChunksWithPrevious_areReferencedAndReadBackLikeAFullWrite() throws IOException {
        Random rnd = new Random(5);
        ByteBuffer u0 = Checkpoints.randomBytes(rnd, (int) U.byteLength());
        ByteBuffer v0 = Checkpoints.mixed(rnd, (int) V.byteLength(), 2048);
        Checkpoints.Written first = write("line-1/rank-0.ilc", HASHED, null, state(u0, v0));
        ByteBuffer u1 = touch(u0, 2, 7);
        ByteBuffer v1 = touch(v0, 0);

        Checkpoints.Written second = write("line-2/rank-0.ilc", HASHED, first.manifest(), state(u1, v1));
        Checkpoints.Written full = write("line-2/rank-0.ilc", HASHED, null, state(u1, v1));

        long nonZeroV = first.manifest().entry("v").orElseThrow().chunks().stream().filter(c -> !c.zero()).count();
        assertThat(second.summary().referencedChunks()).isEqualTo(11 - 2 + nonZeroV - 1);
        assertThat(storedChunks(second.manifest())).isEqualTo(3);
        assertThat(second.bytes().length).isLessThan(full.bytes().length / 2);
        assertThat(second.manifest().referencedFiles()).containsExactly("line-1/rank-0.ilc");
        ChunkResolver resolver = Checkpoints.resolver(Map.of("line-1/rank-0.ilc", first.bytes()));
        CheckpointReader diff = open(second.bytes(), "line-2/rank-0.ilc", resolver);
        assertThat(Checkpoints.readAll(diff)).isEqualTo(Checkpoints.readAll(open(full.bytes())));
        assertThat(Checkpoints.readAll(diff).get("u")).isEqualTo(u1);
        assertThat(diff.verify()).isEmpty();
    }

    private static long storedChunks(Manifest m) {
        return m.entries().stream().flatMap(e -> e.chunks().stream()).filter(c -> c.file() == null && !c.zero()).count();
    }

    @Test
    void writeEntry_chainOfThreeFiles_referencesPointAtTheFileHoldingTheBytes() throws IOException {
        Random rnd = new Random(6);
        ByteBuffer u0 = Checkpoints.randomBytes(rnd, (int) U.byteLength());
        ByteBuffer v0 = Checkpoints.randomBytes(rnd, (int) V.byteLength());
        Checkpoints.Written a = write("a.ilc", HASHED, null, state(u0, v0));
        ByteBuffer u1 = touch(u0, 1);
        Checkpoints.Written b = write("b.ilc", HASHED, a.manifest(), state(u1, v0));
        ByteBuffer u2 = touch(u1, 3);

        Checkpoints.Written c = write("c.ilc", HASHED, b.manifest(), state(u2, v0));

        List<ChunkDescriptor> uc = c.manifest().entry("u").orElseThrow().chunks();
        assertThat(uc.get(0).file()).isEqualTo("a.ilc");
        assertThat(uc.get(1).file()).isEqualTo("b.ilc");
        assertThat(uc.get(3).file()).isNull();
        assertThat(uc.get(1).offset()).isEqualTo(b.manifest().entry("u").orElseThrow().chunks().get(1).offset());
        assertThat(c.manifest().referencedFiles()).containsExactly("a.ilc", "b.ilc");
        ChunkResolver resolver = Checkpoints.resolver(Map.of("a.ilc", a.bytes(), "b.ilc", b.bytes()));
        CheckpointReader r = open(c.bytes(), "c.ilc", resolver);
        assertThat(Checkpoints.readAll(r)).isEqualTo(Checkpoints.readAll(open(write(HASHED, state(u2, v0)).bytes())));
    }

    @Test
    void writeEntry_previousManifestReadFromDisk_servesAsWellAsTheWritersOwn() throws IOException {
        Random rnd = new Random(8);
        ByteBuffer u0 = Checkpoints.randomBytes(rnd, (int) U.byteLength());
        ByteBuffer v0 = Checkpoints.randomBytes(rnd, (int) V.byteLength());
        Checkpoints.Written a = write("a.ilc", HASHED, null, state(u0, v0));
        Manifest fromDisk = open(a.bytes(), "/some/path/a.ilc", ChunkResolver.NONE).manifest();

        Checkpoints.Written b = write("b.ilc", HASHED, fromDisk, state(u0, v0));

        assertThat(b.summary().referencedChunks()).isEqualTo(a.manifest().entries().stream().mapToLong(e -> e.chunks().size()).sum());
        assertThat(b.manifest().referencedFiles()).containsExactly("a.ilc");
    }

    @Test
    void writeEntry_withoutHashingOrWithChangedType_writesEverything() {
        Random rnd = new Random(9);
        ByteBuffer u0 = Checkpoints.randomBytes(rnd, (int) U.byteLength());
        ByteBuffer v0 = Checkpoints.randomBytes(rnd, (int) V.byteLength());
        WriterOptions unhashed = new WriterOptions(4096, 3, false);
        Checkpoints.Written hashedFirst = write("a.ilc", HASHED, null, state(u0, v0));
        EntryHeader uAsLongs = new EntryHeader("u", ElementType.LONG, U.shape(), Scope.LOCAL, Codec.NONE);

        Checkpoints.Written noHash = write("b.ilc", unhashed, hashedFirst.manifest(), state(u0, v0));
        Checkpoints.Written retyped = write("b.ilc", HASHED, hashedFirst.manifest(), Map.of(uAsLongs, u0));

        assertThat(noHash.summary().referencedChunks()).isZero();
        assertThat(noHash.manifest().entries().get(0).chunks()).allSatisfy(c -> assertThat(c.hash()).isNull());
        assertThat(retyped.summary().referencedChunks()).isZero();
        assertThat(hashedFirst.manifest().entries().get(0).chunks()).allSatisfy(c -> assertThat(c.hash()).hasSize(64));
    }

    @Test
    void readEntry_referencedFileMissingOrReplaced_throwsCorruptNamingTheFiles() throws IOException {
        Random rnd = new Random(10);
        ByteBuffer u0 = Checkpoints.randomBytes(rnd, (int) U.byteLength());
        ByteBuffer v0 = Checkpoints.randomBytes(rnd, (int) V.byteLength());
        Checkpoints.Written a = write("a.ilc", HASHED, null, state(u0, v0));
        Checkpoints.Written b = write("b.ilc", HASHED, a.manifest(), state(touch(u0, 0), v0));
        Checkpoints.Written otherA = write("a.ilc", HASHED, null, state(touch(u0, 4), v0));

        CheckpointReader missing = open(b.bytes(), "b.ilc", ChunkResolver.NONE);
        CheckpointReader replaced = open(b.bytes(), "b.ilc", Checkpoints.resolver(Map.of("a.ilc", otherA.bytes())));

        assertThatThrownBy(() -> missing.readEntry("u", ByteBuffer.allocate((int) U.byteLength())))
                .isInstanceOf(CorruptCheckpointException.class).hasMessageContaining("b.ilc").hasMessageContaining("a.ilc")
                .hasCauseInstanceOf(IOException.class);
        assertThat(missing.verify()).hasSize(10 + 4);
        assertThatThrownBy(() -> replaced.readEntry("u", ByteBuffer.allocate((int) U.byteLength())))
                .isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("a.ilc").hasMessageContaining("chunk 4");
        assertThat(replaced.verify()).singleElement().satisfies(e -> {
            assertThat(e.file()).isEqualTo("a.ilc");
            assertThat(e.offset()).isEqualTo(a.manifest().entry("u").orElseThrow().chunks().get(4).offset());
        });
    }

    @Test
    void open_previousWithoutOrWithSameFileName_isRejected() {
        Manifest nameless = new Manifest(1, "x", Checkpoints.meta(1), List.of());
        Manifest same = new Manifest(1, "x", Checkpoints.meta(1), List.of(), "a.ilc");

        assertThatThrownBy(() -> CheckpointWriter.open(new MemoryChannel(), "a.ilc", Checkpoints.meta(2), HASHED, nameless))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("previous manifest");
        assertThatThrownBy(() -> CheckpointWriter.open(new MemoryChannel(), "a.ilc", Checkpoints.meta(2), HASHED, same))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("previous manifest");
    }
}
