package io.ironloop.core.level;

import java.nio.ByteBuffer;

/**
 * A lost member's byte stream ({@link StripeLayout}) as a rebuild decodes it: a snapshot may exceed the 2 GiB a
 * single buffer holds, so the stream is kept in direct buffers of at most {@link #PART} bytes each, positions
 * are longs throughout, and {@link #slice} gives an image back as a view of its part (a copy only for the rare
 * image that crosses a part's end).
 *
 * <p>Threading: confined to the thread that rebuilds.
 */
final class RebuiltStream {
    /** Bytes per part: a power of two well below a buffer's 2 GiB limit. */
    static final int PART = 1 << 30;

    private final long length;
    private final int part;
    private final ByteBuffer[] parts;

    /** An empty (zeroed) stream of {@code length} bytes. */
    RebuiltStream(long length) {
        this(length, PART);
    }

    /** With parts of {@code part} bytes, so that tests cross part boundaries without gigabytes. */
    RebuiltStream(long length, int part) {
        if (length < 0 || part < 1) {
            throw new IllegalArgumentException("a stream of " + length + " bytes in parts of " + part + " bytes");
        }
        this.length = length;
        this.part = part;
        this.parts = new ByteBuffer[Math.toIntExact(partCount(length, part))];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = ByteBuffer.allocateDirect((int) Math.min(part, length - (long) i * part));
        }
    }

    /** How many parts of {@code part} bytes a stream of {@code length} bytes takes. */
    static long partCount(long length, int part) {
        return (length + part - 1) / part;
    }

    /** The stream's length in bytes. */
    long length() {
        return length;
    }

    /** Writes {@code len} bytes of {@code src} from {@code off} at stream position {@code at}, across parts as needed. */
    void put(long at, byte[] src, int off, int len) {
        if (at < 0 || len < 0 || at + len > length) {
            throw new IndexOutOfBoundsException("bytes [" + at + ", " + (at + len) + ") of a stream of " + length);
        }
        while (len > 0) {
            int i = (int) (at / part);
            int within = (int) (at % part);
            int n = Math.min(len, parts[i].capacity() - within);
            parts[i].put(within, src, off, n);
            at += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Bytes {@code [from, from + len)}: a view of one part when they lie in it, else a copy (position 0, limit len).
     *
     * @throws IndexOutOfBoundsException if they run past the stream's end
     */
    ByteBuffer slice(long from, int len) {
        if (from < 0 || len < 0 || from + len > length) {
            throw new IndexOutOfBoundsException("bytes [" + from + ", " + (from + len) + ") of a stream of " + length);
        }
        if (len == 0) {
            return ByteBuffer.allocateDirect(0); // an empty image, possibly at the stream's very end
        }
        int i = (int) (from / part);
        int within = (int) (from % part);
        if (within + len <= parts[i].capacity()) {
            return parts[i].slice(within, len);
        }
        ByteBuffer copy = ByteBuffer.allocateDirect(len);
        for (long at = from; copy.hasRemaining(); ) {
            int p = (int) (at / part);
            int w = (int) (at % part);
            int n = Math.min(copy.remaining(), parts[p].capacity() - w);
            copy.put(parts[p].slice(w, n));
            at += n;
        }
        return copy.flip();
    }
}
