package io.ironloop.format.internal;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import io.ironloop.format.Codec;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The zstd and lz4 block codecs behind {@link Codec}, with their native contexts created on first use
 * and reused for every chunk. Decompression uses only bounds-checked decoders (zstd's, lz4's "safe"
 * decompressor), which never write past the output length they are given. Not thread-safe; call
 * {@link #close()} to free native zstd contexts early (they are also freed when collected).
 */
public final class Compression implements AutoCloseable {
    private final int zstdLevel;
    private ZstdCompressCtx zstdCompress;
    private ZstdDecompressCtx zstdDecompress;
    private LZ4Compressor lz4Compress;
    private LZ4SafeDecompressor lz4Decompress;

    /** @param zstdLevel zstd compression level (as zstd defines it; ignored by lz4 and for decoding) */
    public Compression(int zstdLevel) {
        this.zstdLevel = zstdLevel;
    }

    /** The largest output {@link #compress} can produce for {@code rawLength} input bytes. */
    public static int maxCompressedLength(Codec codec, int rawLength) {
        return switch (codec) {
            case NONE -> rawLength;
            case ZSTD -> Math.toIntExact(Zstd.compressBound(rawLength));
            case LZ4 -> LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(rawLength);
        };
    }

    /**
     * Compresses {@code src[0, len)} into {@code dst} (at least {@link #maxCompressedLength} long) and
     * returns the compressed length.
     */
    public int compress(Codec codec, byte[] src, int len, byte[] dst) {
        return switch (codec) {
            case ZSTD -> zstdCompress().compressByteArray(dst, 0, dst.length, src, 0, len);
            case LZ4 -> lz4Compress().compress(src, 0, len, dst, 0, dst.length);
            case NONE -> throw new IllegalArgumentException("NONE is not a compression codec");
        };
    }

    /**
     * Decompresses {@code src[0, srcLen)} into {@code dst[0, rawLength)} and returns the number of bytes
     * produced, which callers compare with {@code rawLength}.
     *
     * @throws RuntimeException (a codec-specific one) when the input is not a valid block
     */
    public int decompress(Codec codec, byte[] src, int srcLen, byte[] dst, int rawLength) {
        return switch (codec) {
            case ZSTD -> zstdDecompress().decompressByteArray(dst, 0, rawLength, src, 0, srcLen);
            case LZ4 -> lz4Decompress().decompress(src, 0, srcLen, dst, 0, rawLength);
            case NONE -> throw new IllegalArgumentException("NONE is not a compression codec");
        };
    }

    private ZstdCompressCtx zstdCompress() {
        if (zstdCompress == null) {
            zstdCompress = new ZstdCompressCtx().setLevel(zstdLevel);
        }
        return zstdCompress;
    }

    private ZstdDecompressCtx zstdDecompress() {
        if (zstdDecompress == null) {
            zstdDecompress = new ZstdDecompressCtx();
        }
        return zstdDecompress;
    }

    private LZ4Compressor lz4Compress() {
        if (lz4Compress == null) {
            lz4Compress = LZ4Factory.fastestInstance().fastCompressor();
        }
        return lz4Compress;
    }

    private LZ4SafeDecompressor lz4Decompress() {
        if (lz4Decompress == null) {
            lz4Decompress = LZ4Factory.fastestInstance().safeDecompressor();
        }
        return lz4Decompress;
    }

    @Override
    public void close() {
        if (zstdCompress != null) {
            zstdCompress.close();
            zstdCompress = null;
        }
        if (zstdDecompress != null) {
            zstdDecompress.close();
            zstdDecompress = null;
        }
    }
}
