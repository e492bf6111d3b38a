package io.ironloop.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import com.sun.nio.file.ExtendedOpenOption;

/** The raw-disk reference of the benchmarks: what the file system does without Ironloop. */
public final class RawDisk {
    /** Bytes per {@code write} call. */
    public static final int BLOCK = 1 << 20;

    private RawDisk() {
    }

    /**
     * Writes {@code size} bytes sequentially to a new file with a {@link FileChannel}, then
     * {@code force(true)}: the time a plain durable write of the same bytes takes.
     *
     * @param file the file to create; it must not exist
     * @param size bytes to write
     * @param block a buffer of at most {@link #BLOCK} bytes whose content is written over and over
     * @throws IOException if the file exists or a write fails
     */
    public static void writeAndSync(Path file, long size, ByteBuffer block) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long left = size; left > 0; ) {
                block.clear().limit((int) Math.min(left, block.capacity()));
                left -= block.remaining();
                while (block.hasRemaining()) {
                    ch.write(block);
                }
            }
            ch.force(true);
        }
    }

    /** Alignment of the buffer and of every write of {@link #writeAndSyncDirect}: a page, a multiple of any logical block. */
    public static final int DIRECT_ALIGNMENT = 4096;

    /**
     * The same durable write past the page cache ({@code O_DIRECT}, then {@code force(true)}): what the disk needs
     * for these bytes when no page-cache page has to be found and filled for them, which on a virtual machine
     * that returns freed memory to its host can cost more than the disk (benchmarks/README.md).
     *
     * @param file the file to create; it must not exist
     * @param size bytes to write, a multiple of {@link #DIRECT_ALIGNMENT}
     * @param block a direct buffer of {@link #BLOCK} bytes whose address is a multiple of {@link #DIRECT_ALIGNMENT}
     *     ({@code ByteBuffer.allocateDirect(BLOCK + DIRECT_ALIGNMENT).alignedSlice(DIRECT_ALIGNMENT)})
     * @throws IOException if the file exists, a write fails, or this file system has no direct I/O
     * @throws UnsupportedOperationException if this platform has no direct I/O
     */
    public static void writeAndSyncDirect(Path file, long size, ByteBuffer block) throws IOException {
        if (size % DIRECT_ALIGNMENT != 0) {
            throw new IllegalArgumentException("a direct write needs a multiple of " + DIRECT_ALIGNMENT + " bytes: " + size);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                ExtendedOpenOption.DIRECT)) {
            long position = 0;
            while (position < size) {
                block.clear().limit((int) Math.min(size - position, BLOCK));
                while (block.hasRemaining()) {
                    position += ch.write(block, position);
                }
            }
            ch.force(true);
        }
    }
}
