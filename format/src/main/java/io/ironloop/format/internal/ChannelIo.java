package io.ironloop.format.internal;

import io.ironloop.format.CorruptCheckpointException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Whole-buffer reads at a position and whole-buffer writes, with protection against channels that stop
 * making progress. A {@link FileChannel} is read positionally (its position is left alone); other
 * channels are positioned first.
 */
public final class ChannelIo {
    /** Consecutive zero-byte transfers after which a channel is considered stuck. */
    private static final int MAX_STALLS = 1000;

    private ChannelIo() {
    }

    /**
     * Fills {@code dst}'s remaining bytes from {@code channel} starting at {@code position}.
     *
     * @throws CorruptCheckpointException if the file ends first (naming {@code file} and the offset)
     * @throws IOException if the channel fails or stops making progress
     */
    public static void readFully(SeekableByteChannel channel, long position, ByteBuffer dst, String file) throws IOException {
        long pos = position;
        FileChannel fc = channel instanceof FileChannel f ? f : null;
        if (fc == null) {
            channel.position(pos);
        }
        int stalls = 0;
        while (dst.hasRemaining()) {
            int n = fc != null ? fc.read(dst, pos) : channel.read(dst);
            if (n < 0) {
                throw new CorruptCheckpointException(file, pos, "the file ends " + dst.remaining()
                        + " bytes early (truncated while being read?)");
            }
            if (n == 0 && ++stalls > MAX_STALLS) {
                throw new IOException(file + ": channel makes no progress reading at offset " + pos);
            }
            if (n > 0) {
                stalls = 0;
            }
            pos += n;
        }
    }

    /**
     * Writes all of {@code src}'s remaining bytes.
     *
     * @throws IOException if the channel fails or stops making progress
     */
    public static void writeFully(WritableByteChannel channel, ByteBuffer src) throws IOException {
        int stalls = 0;
        while (src.hasRemaining()) {
            int n = channel.write(src);
            if (n == 0 && ++stalls > MAX_STALLS) {
                throw new IOException("channel makes no progress writing (" + src.remaining() + " bytes left)");
            }
            if (n > 0) {
                stalls = 0;
            }
        }
    }
}
