package io.ironloop.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
}
