package io.ironloop.objectstore;

import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.zip.CRC32C;

/**
 * Reads an object with ranged GETs of one block at a time. Read from start to end in order (a copy, a
 * download), it also checks the whole object's CRC32C against the one recorded when it was uploaded, and
 * reports a mismatch as {@link CorruptCheckpointException} when the last byte is read, so a damaged object is
 * never taken for a good one; random reads (a checkpoint reader) rely on the format's per-chunk CRC32C.
 *
 * <p>Not thread-safe, like any channel with a position.
 */
final class S3ReadChannel implements SeekableByteChannel {
    /** Fetches {@code length} bytes at {@code offset}. */
    interface Ranges {
        byte[] get(long offset, int length) throws IOException;
    }

    private final String name;
    private final long size;
    private final long expectedCrc;
    private final Ranges ranges;
    private final int blockSize;
    private final CRC32C crc = new CRC32C();
    private long position;
    /** Bytes read in order from 0 and fed to {@link #crc}; -1 once a read went elsewhere. */
    private long inOrder;
    private byte[] block = new byte[0];
    private long blockStart;
    private boolean open = true;

    /**
     * @param expectedCrc the whole object's CRC32C as uploaded, or -1 when unknown (then only the size is known)
     */
    S3ReadChannel(String name, long size, long expectedCrc, Ranges ranges, int blockSize) {
        this.name = name;
        this.size = size;
        this.expectedCrc = expectedCrc;
        this.ranges = ranges;
        this.blockSize = blockSize;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        if (position < blockStart || position >= blockStart + block.length) {
            blockStart = position;
            block = ranges.get(position, (int) Math.min(blockSize, size - position));
        }
        int off = (int) (position - blockStart);
        int n = Math.min(dst.remaining(), block.length - off);
        dst.put(block, off, n);
        if (inOrder == position) {
            crc.update(block, off, n);
            inOrder += n;
            if (inOrder == size && expectedCrc >= 0 && crc.getValue() != expectedCrc) {
                throw new CorruptCheckpointException(name, 0, String.format("object's CRC32C is %08x but %08x was uploaded: the copy in"
                        + " the object store is damaged", crc.getValue(), expectedCrc));
            }
        } else {
            inOrder = -1;
        }
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long s) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
        block = new byte[0];
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
