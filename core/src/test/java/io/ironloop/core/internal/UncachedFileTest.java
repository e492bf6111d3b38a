package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.Store;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UncachedFileTest {
    @TempDir
    Path dir;

    /**
     * Writes of every kind the writer makes (heap, unaligned direct, aligned direct; small, block-sized, large,
     * ending mid-block) land byte for byte where a plain sequential write puts them.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void write_mixedBuffersAndSizes_fileHoldsExactlyTheBytesInOrder(long seed) throws Exception {
        Random r = new Random(seed);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Path file = dir.resolve("f" + seed);
        UncachedFile ch = UncachedFile.create(file);
        if (ch == null) {
            return; // no direct I/O here: the store writes an ordinary file, covered elsewhere
        }
        int writes = 1 + r.nextInt(40);
        for (int w = 0; w < writes; w++) {
            int len = switch (r.nextInt(5)) {
                case 0 -> r.nextInt(100);
                case 1 -> UncachedFile.ALIGN * (1 + r.nextInt(4));
                case 2 -> r.nextInt(3 * UncachedFile.GATHER);
                case 3 -> UncachedFile.ALIGN - r.nextInt(64);
                default -> r.nextInt(70_000);
            };
            byte[] bytes = new byte[len];
            r.nextBytes(bytes);
            expected.write(bytes);
            ByteBuffer src = switch (r.nextInt(3)) {
                case 0 -> ByteBuffer.wrap(bytes);
                case 1 -> ByteBuffer.allocateDirect(len + 7).position(7 - r.nextInt(7)).slice().put(bytes).flip();
                default -> ByteBuffer.allocateDirect(len + 2 * UncachedFile.ALIGN).alignedSlice(UncachedFile.ALIGN).put(bytes).flip();
            };
            assertThat(ch.write(src)).isEqualTo(len);
            assertThat(src.hasRemaining()).isFalse();
        }
        try (FileChannel fc = ch.finish()) {
            fc.force(true);
        }
        ch.close();
        assertThat(Files.readAllBytes(file)).isEqualTo(expected.toByteArray());
    }

    @Test
    void createUncached_directoryStore_publishesTheBytesUnderTheFinalNameAndLeavesNoTemporary() throws Exception {
        byte[] bytes = new byte[3 * UncachedFile.GATHER + 12345];
        new Random(42).nextBytes(bytes);
        Store store = new DirectoryStore(dir);
        try (Store.PendingFile f = store.createUncached(LineCatalog.dataFile("s", 1))) {
            f.channel().write(ByteBuffer.wrap(bytes, 0, 100));
            f.channel().write(ByteBuffer.allocateDirect(bytes.length - 100).put(bytes, 100, bytes.length - 100).flip());
            f.publish();
        }
        assertThat(Files.readAllBytes(dir.resolve(LineCatalog.dataFile("s", 1)))).isEqualTo(bytes);
        assertThat(store.listFiles("s")).containsExactly(LineCatalog.dataFile("s", 1));
    }

    @Test
    void createUncached_closedUnpublished_removesTheTemporary() throws Exception {
        Store store = new DirectoryStore(dir);
        try (Store.PendingFile f = store.createUncached(LineCatalog.dataFile("s", 2))) {
            f.channel().write(ByteBuffer.allocate(5000));
        }
        try (var files = Files.list(dir.resolve("s"))) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
