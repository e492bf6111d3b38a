package io.ironloop.format.internal;

import io.ironloop.format.Codec;
import io.ironloop.format.ElementType;

import java.nio.ByteBuffer;

/**
 * Turns one raw chunk into the bytes to store. Without compression the raw bytes are returned as they
 * are (no copy). With compression the chunk is copied once into a reusable array, byte-shuffled by
 * element width when elements have more than one byte, and compressed into a reusable array; when that
 * does not pay (more than {@link Layout#COMPRESSION_PAYS_TENTHS} tenths of the raw length) the raw
 * bytes are stored uncompressed instead. Not thread-safe: one encoder per writer.
 */
public final class ChunkEncoder implements AutoCloseable {
    private final Compression compression;
    private byte[] raw = new byte[0];
    private byte[] shuffled = new byte[0];
    private byte[] out = new byte[0];

    /** @param zstdLevel the zstd level for entries compressed with {@link Codec#ZSTD} */
    public ChunkEncoder(int zstdLevel) {
        this.compression = new Compression(zstdLevel);
    }

    /**
     * What to store for one chunk.
     *
     * @param bytes the stored bytes (remaining); valid until the next {@link #encode} call
     * @param codec the codec they are encoded with
     * @param shuffled whether the raw bytes were shuffled before compression
     */
    public record Encoded(ByteBuffer bytes, Codec codec, boolean shuffled) {
    }

    /**
     * Encodes the remaining bytes of {@code chunk} (which is not modified) for an entry of element type
     * {@code type} compressed with {@code codec}.
     */
    public Encoded encode(ByteBuffer chunk, ElementType type, Codec codec) {
        if (codec == Codec.NONE) {
            return new Encoded(chunk, Codec.NONE, false);
        }
        int len = chunk.remaining();
        if (raw.length < len) {
            raw = new byte[len];
        }
        chunk.get(chunk.position(), raw, 0, len);
        byte[] input = raw;
        boolean shuffle = type.width() > 1;
        if (shuffle) {
            if (shuffled.length < len) {
                shuffled = new byte[len];
            }
            ByteShuffle.shuffle(raw, shuffled, len, type.width());
            input = shuffled;
        }
        int bound = Compression.maxCompressedLength(codec, len);
        if (out.length < bound) {
            out = new byte[bound];
        }
        int stored = compression.compress(codec, input, len, out);
        if ((long) stored * 10 > (long) len * Layout.COMPRESSION_PAYS_TENTHS) {
            return new Encoded(chunk, Codec.NONE, false);
        }
        return new Encoded(ByteBuffer.wrap(out, 0, stored), codec, shuffle);
    }

    @Override
    public void close() {
        compression.close();
    }
}
