package io.ironloop.core.internal;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new file written sequentially past the page cache ({@code O_DIRECT}): the bytes go from the caller's buffer
 * to the device without the kernel first finding, and copying them into, a page-cache page for every 4 KiB.
 * For a save that nobody reads back on this machine (a termination signal's), where that page-cache work is
 * the cost: on a virtual machine that hands freed memory back to its host, each such page is a host page fault
 * on first touch, and a buffered 1 GiB write took 4–5 s instead of 0.3 s (benchmarks/README.md).
 *
 * <p>Direct I/O needs every write's memory address, file offset and length aligned to the device's block;
 * this channel keeps them so: a remaining span that starts on a block in a direct buffer aligned to a block is
 * written straight from the caller's memory (the writer's chunk buffers are), anything else is gathered in an
 * aligned buffer of its own first. The last partial block is written through an ordinary (cached) channel on
 * the same file at {@link #finish()}. If a direct write fails, for example on a file system that accepted
 * {@code O_DIRECT} at open but refuses it for writes, the rest of the file (the failed span included) is written
 * through the ordinary channel: direct I/O is only ever an optimisation; an I/O error that the ordinary channel
 * also gets is thrown.
 *
 * <p>Not thread-safe: one writer.
 */
final class UncachedFile implements WritableByteChannel {
    private static final Logger LOG = LoggerFactory.getLogger(UncachedFile.class);
    /** Alignment of addresses, offsets and lengths: a page, a multiple of every logical block size Linux has. */
    static final int ALIGN = 4096;
    /** Bytes gathered before a direct write when the caller's buffers cannot be written as they are. */
    static final int GATHER = 1 << 20;

    private final Path path;
    private FileChannel direct;
    private FileChannel cached;
    private ByteBuffer gather;
    /** Bytes written to the file so far, excluding those still in {@link #gather}. */
    private long written;
    private boolean open = true;

    private UncachedFile(Path path, FileChannel direct) {
        this.path = path;
        this.direct = direct;
    }

    /**
     * Creates (or truncates) {@code path} for writing past the page cache.
     *
     * @return the channel, or null when this platform or file system has no direct I/O (the caller then writes
     *     an ordinary file)
     * @throws IOException when the file cannot be created for another reason
     */
    static UncachedFile create(Path path) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
        } catch (UnsupportedOperationException e) {
            return null;
        } catch (IOException e) {
            // EINVAL: the file system has no O_DIRECT (tmpfs on older kernels, some FUSE file systems)
            if (String.valueOf(e.getMessage()).contains("Invalid argument")) {
                LOG.debug("no direct I/O for {}: {}", path, e.toString());
                return null;
            }
            throw e;
        }
        return new UncachedFile(path, ch);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        if (direct == null) {
            writeCached(src);
            return n;
        }
        while (src.hasRemaining()) {
            int pending = gather == null ? 0 : gather.position();
            if (pending % ALIGN == 0 && src.remaining() >= ALIGN && src.isDirect()
                    && src.alignmentOffset(src.position(), ALIGN) == 0) {
                flushGathered();
                int len = src.remaining() & -ALIGN;
                writeDirect(src.slice(src.position(), len));
                src.position(src.position() + len);
            } else {
                if (gather == null) {
                    gather = ByteBuffer.allocateDirect(GATHER + ALIGN).alignedSlice(ALIGN);
                }
                int k = Math.min(src.remaining(), gather.remaining());
                gather.put(gather.position(), src, src.position(), k);
                gather.position(gather.position() + k);
                src.position(src.position() + k);
                if (!gather.hasRemaining()) {
                    flushGathered();
                }
            }
            if (direct == null) {
                writeCached(src);
            }
        }
        return n;
    }

    /** Writes the gathered bytes, which must be whole blocks, and empties the gather buffer. */
    private void flushGathered() throws IOException {
        if (gather == null || gather.position() == 0) {
            return;
        }
        ByteBuffer g = gather.flip();
        gather = null;
        try {
            writeDirect(g);
        } finally {
            gather = g.clear();
        }
    }

    /** Writes {@code span} (aligned) at {@link #written}; after a failure, falls back to the cached channel for good. */
    private void writeDirect(ByteBuffer span) throws IOException {
        if (direct != null) {
            try {
                while (span.hasRemaining()) {
                    written += direct.write(span, written);
                }
                return;
            } catch (IOException e) {
                LOG.info("direct write to {} failed at offset {} ({}); writing the rest through the page cache", path, written,
                        e.toString());
                FileChannel d = direct;
                direct = null;
                try {
                    d.close();
                } catch (IOException ignored) {
                    // the cached channel takes over
                }
            }
        }
        writeCached(span);
    }

    private void writeCached(ByteBuffer src) throws IOException {
        if (cached == null) {
            cached = FileChannel.open(path, StandardOpenOption.WRITE);
        }
        while (src.hasRemaining()) {
            written += cached.write(src, written);
        }
    }

    /**
     * Writes what is still gathered (whole blocks directly, the last partial block through the cached channel),
     * then returns the channel to fsync and close the file with: every byte has been handed to the kernel.
     * The other channel, if any, is closed here.
     */
    FileChannel finish() throws IOException {
        if (gather != null && gather.position() > 0) {
            ByteBuffer g = gather.flip();
            int whole = g.remaining() & -ALIGN;
            if (whole > 0 && direct != null) {
                writeDirect(g.slice(0, whole));
                g.position(whole);
            }
            if (g.hasRemaining()) {
                writeCached(g);
            }
            g.clear();
        }
        open = false;
        if (cached == null) {
            return direct;
        }
        if (direct != null) {
            direct.close();
            direct = null;
        }
        return cached;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        open = false;
        IOException first = null;
        for (FileChannel c : new FileChannel[] {direct, cached}) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
