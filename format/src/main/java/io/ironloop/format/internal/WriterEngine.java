package io.ironloop.format.internal;

import io.ironloop.IronloopVersion;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.ChunkSource;
import io.ironloop.format.Codec;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import io.ironloop.format.WriteSummary;
import io.ironloop.format.WriterOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * Writes one checkpoint file sequentially: the header when opened, each entry's chunks as they come
 * (elided when zero, referenced when unchanged since the previous file, else encoded and stored), then
 * manifest and trailer. Behind {@link io.ironloop.format.CheckpointWriter}; not thread-safe. After any
 * failure the writer refuses further calls and the partial file must be discarded.
 */
public final class WriterEngine {
    private enum State { OPEN, FINISHED, FAILED }

    private final WritableByteChannel channel;
    private final String fileName;
    private final FileMeta meta;
    private final int chunkSize;
    private final Map<String, EntryDescriptor> previous = new HashMap<>();
    private final String previousName;
    private final MessageDigest sha256;
    private final ChunkEncoder encoder;
    private final ManifestJson json;
    private final CRC32C crc = new CRC32C();
    private final CRC32C paddingCrc = new CRC32C();
    private final ChunkAhead chunkAhead = new ChunkAhead();
    private final ByteBuffer padding = ByteBuffer.allocate(Layout.ALIGNMENT).asReadOnlyBuffer();
    private final List<EntryDescriptor> entries = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    /** The streaming write's two chunk buffers, allocated at its first use and kept for the file. */
    private final ByteBuffer[] bounce = new ByteBuffer[2];
    private State state = State.OPEN;
    private long position;
    private long chunkCount;
    private long rawBytes;
    private long zeroChunks;
    private long referencedChunks;
    private long compressedChunks;
    private long compressionSaved;

    private WriterEngine(WritableByteChannel channel, String fileName, FileMeta meta, WriterOptions options, Manifest previous) {
        this.channel = channel;
        this.fileName = fileName;
        this.meta = meta;
        this.chunkSize = options.chunkSize();
        this.sha256 = options.hashChunks() ? sha256() : null;
        boolean differential = previous != null && options.hashChunks();
        this.previousName = differential ? previous.fileName() : null;
        if (differential) {
            for (EntryDescriptor e : previous.entries()) {
                this.previous.put(e.name(), e);
            }
        }
        this.encoder = new ChunkEncoder(options.compressionLevel());
        this.json = new ManifestJson(fileName, chunkSize, meta, IronloopVersion.current());
    }

    /** Validates the arguments and writes the header; see {@link io.ironloop.format.CheckpointWriter#open}. */
    public static WriterEngine open(WritableByteChannel channel, String fileName, FileMeta meta, WriterOptions options,
                                    Manifest previous) throws IOException {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(options, "options");
        String problem = StoreNames.problem(Objects.requireNonNull(fileName, "fileName"));
        if (problem != null) {
            throw new IllegalArgumentException("the writer's file name must be store-relative: " + problem);
        }
        if (channel instanceof SeekableByteChannel s && s.position() != 0) {
            throw new IllegalArgumentException("channel for " + fileName + " is at position " + s.position() + ", not 0");
        }
        checkMeta(meta);
        if (previous != null && options.hashChunks()) {
            String prevProblem = StoreNames.problem(previous.fileName());
            if (prevProblem != null || previous.fileName().equals(fileName)) {
                throw new IllegalArgumentException("the previous manifest for a differential write of " + fileName
                        + " needs its own store-relative file name, different from this one: "
                        + (prevProblem != null ? prevProblem : previous.fileName()));
            }
        }
        WriterEngine w = new WriterEngine(channel, fileName, meta, options, previous);
        w.write(FileHeader.CURRENT.encode());
        return w;
    }

    /** Writes one entry; see {@link io.ironloop.format.CheckpointWriter#writeEntry(EntryHeader, ByteBuffer)}. */
    public void writeEntry(EntryHeader header, ByteBuffer data) throws IOException {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(data, "data");
        requireOpen();
        long length = header.byteLength();
        if (data.remaining() != length) {
            throw new IllegalArgumentException("entry " + header + " has " + length + " bytes but the buffer holds " + data.remaining());
        }
        ByteBuffer src = data.slice();
        writeEntry(header, i -> rawChunk(src, i));
    }

    /**
     * Writes one entry streamed from {@code source}; see
     * {@link io.ironloop.format.CheckpointWriter#writeEntry(EntryHeader, ChunkSource)}. Chunk {@code i} is filled
     * into bounce buffer {@code i % 2}: the raw path fetches chunk {@code i + 1} before it writes chunk {@code i},
     * so a buffer is refilled only after the chunk it held was written and its checksum joined.
     */
    public void writeEntry(EntryHeader header, ChunkSource source) throws IOException {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(source, "source");
        requireOpen();
        long length = header.byteLength();
        if (bounce[0] == null) {
            bounce[0] = alignedBuffer(chunkSize);
            bounce[1] = alignedBuffer(chunkSize);
        }
        writeEntry(header, i -> {
            long offset = (long) i * chunkSize;
            ByteBuffer b = bounce[i % 2].clear().limit((int) Math.min(chunkSize, length - offset));
            source.fill(offset, b.duplicate().order(ByteOrder.LITTLE_ENDIAN));
            return b.position(0);
        });
    }

    private void writeEntry(EntryHeader header, IntFunction<ByteBuffer> chunkAt) throws IOException {
        long length = header.byteLength();
        if (names.contains(header.name())) {
            throw new IllegalArgumentException("entry '" + header.name() + "' is already in " + fileName);
        }
        long count = (length + chunkSize - 1) / chunkSize;
        if (entries.size() >= Layout.MAX_ENTRIES || chunkCount + count > Layout.MAX_CHUNKS) {
            throw new IllegalStateException(fileName + " would exceed " + Layout.MAX_ENTRIES + " entries or " + Layout.MAX_CHUNKS
                    + " chunks; use a larger chunk size or fewer entries");
        }
        state = State.FAILED;
        EntryDescriptor entry;
        try {
            entry = writeChunks(header, chunkAt, (int) count);
        } catch (IOException | RuntimeException | Error e) {
            encoder.close();
            throw e;
        }
        if (json.append(entry) > Layout.MAX_MANIFEST_BYTES - 64) {
            encoder.close();
            throw new IllegalStateException("the manifest of " + fileName + " would exceed " + Layout.MAX_MANIFEST_BYTES
                    + " bytes; use a larger chunk size or fewer entries");
        }
        names.add(header.name());
        entries.add(entry);
        chunkCount += count;
        rawBytes += length;
        state = State.OPEN;
    }

    /** Writes manifest and trailer; see {@link io.ironloop.format.CheckpointWriter#finish}. */
    public WriteSummary finish() throws IOException {
        requireOpen();
        state = State.FAILED;
        encoder.close();
        byte[] manifestBytes = json.finish((int) paddingCrc.getValue());
        long manifestOffset = position;
        crc.reset();
        crc.update(manifestBytes);
        write(ByteBuffer.wrap(manifestBytes));
        write(new FileTrailer(manifestOffset, manifestBytes.length, (int) crc.getValue()).encode());
        state = State.FINISHED;
        Manifest manifest = new Manifest(Layout.MAJOR, IronloopVersion.current(), meta, entries, fileName);
        return new WriteSummary(manifest, position, rawBytes, zeroChunks, referencedChunks, compressedChunks, compressionSaved);
    }

    private EntryDescriptor writeChunks(EntryHeader header, IntFunction<ByteBuffer> chunkAt, int count) throws IOException {
        if (header.codec() == Codec.NONE && sha256 == null) {
            return writeRawChunks(header, chunkAt, count);
        }
        EntryDescriptor before = previous.get(header.name());
        EntryDescriptor prev = before != null && before.header().type() == header.type() ? before : null;
        List<ChunkDescriptor> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            chunks.add(chunk(i, chunkAt.apply(i), header, prev));
        }
        return new EntryDescriptor(header, chunks);
    }

    /**
     * The fast path for uncompressed, unhashed entries: every chunk is zero or stored as it is, straight
     * from the chunk buffer {@code chunkAt} returns, while the next chunk is fetched (for a streamed entry:
     * copied into the other chunk buffer), zero-checked and checksummed on a helper thread. Chunk {@code i + 1}
     * is fetched only once chunk {@code i - 1} has been written, so two chunk buffers suffice; no helper still
     * works on the entry when this returns or throws.
     */
    private EntryDescriptor writeRawChunks(EntryHeader header, IntFunction<ByteBuffer> chunkAt, int count) throws IOException {
        List<ChunkDescriptor> chunks = new ArrayList<>(count);
        ChunkAhead.Task next = count > 0 ? chunkAhead.start(() -> chunkAt.apply(0)) : null;
        try {
            for (int i = 0; i < count; i++) {
                ChunkAhead.Task task = next;
                next = null;
                ByteBuffer raw = task.join();
                int following = i + 1;
                next = following < count ? chunkAhead.start(() -> chunkAt.apply(following)) : null;
                int len = raw.remaining();
                if (task.zero()) {
                    zeroChunks++;
                    chunks.add(new ChunkDescriptor(i, len, null, -1, 0, Codec.NONE, false, true, 0, null));
                    continue;
                }
                alignFor(len);
                long offset = position;
                write(raw.duplicate());
                chunks.add(new ChunkDescriptor(i, len, null, offset, len, Codec.NONE, false, false, task.crc(), null));
            }
        } catch (IOException | RuntimeException | Error e) {
            if (next != null) {
                try {
                    next.join();
                } catch (RuntimeException | Error ignored) {
                    // the first failure is the one reported
                }
            }
            throw e;
        }
        return new EntryDescriptor(header, chunks);
    }

    /**
     * A direct buffer whose address is a multiple of {@link Layout#ALIGNMENT}: stored chunks start on that
     * boundary in the file too, so a channel doing direct I/O can hand a chunk to the device as it is.
     */
    private static ByteBuffer alignedBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity + Layout.ALIGNMENT).alignedSlice(Layout.ALIGNMENT).limit(capacity).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    private ByteBuffer rawChunk(ByteBuffer src, int index) {
        int start = index * chunkSize;
        return src.slice(start, Math.min(chunkSize, src.limit() - start));
    }

    /** Writes zero padding up to the next {@link Layout#ALIGNMENT} boundary before a stored chunk that large. */
    private void alignFor(int storedLength) throws IOException {
        if (storedLength >= Layout.ALIGNMENT && position % Layout.ALIGNMENT != 0) {
            ByteBuffer pad = padding.duplicate().limit((int) (Layout.ALIGNMENT - position % Layout.ALIGNMENT));
            paddingCrc.update(pad.duplicate());
            write(pad);
        }
    }

    private ChunkDescriptor chunk(int index, ByteBuffer raw, EntryHeader header, EntryDescriptor prev) throws IOException {
        int len = raw.remaining();
        if (ZeroBytes.isZero(raw)) {
            zeroChunks++;
            return new ChunkDescriptor(index, len, null, -1, 0, Codec.NONE, false, true, 0, null);
        }
        String hash = null;
        if (sha256 != null) {
            sha256.update(raw.duplicate());
            hash = HexFormat.of().formatHex(sha256.digest());
            if (prev != null && index < prev.chunks().size()) {
                ChunkDescriptor p = prev.chunks().get(index);
                if (!p.zero() && p.rawLength() == len && hash.equals(p.hash()) && !fileName.equals(p.file())) {
                    referencedChunks++;
                    String holder = p.file() != null ? p.file() : previousName;
                    return new ChunkDescriptor(index, len, holder, p.offset(), p.storedLength(), p.codec(), p.shuffled(),
                            false, p.crc32c(), hash);
                }
            }
        }
        ChunkEncoder.Encoded encoded = encoder.encode(raw, header.type(), header.codec());
        ByteBuffer stored = encoded.bytes();
        int storedLength = stored.remaining();
        crc.reset();
        crc.update(stored.duplicate());
        alignFor(storedLength);
        long offset = position;
        write(stored.duplicate());
        if (encoded.codec() != Codec.NONE) {
            compressedChunks++;
            compressionSaved += len - storedLength;
        }
        return new ChunkDescriptor(index, len, null, offset, storedLength, encoded.codec(), encoded.shuffled(), false,
                (int) crc.getValue(), hash);
    }

    private void write(ByteBuffer b) throws IOException {
        int n = b.remaining();
        ChannelIo.writeFully(channel, b);
        position += n;
    }

    private void requireOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException("the writer of " + fileName + " is " + (state == State.FINISHED ? "finished" : "broken by an earlier failure"));
        }
    }

    private static void checkMeta(FileMeta meta) {
        if (meta.jobId().length() > Layout.MAX_TEXT_CHARS || meta.settingsFingerprint().length() > Layout.MAX_TEXT_CHARS
                || meta.attributes().size() > Layout.MAX_ATTRIBUTES) {
            throw new IllegalArgumentException("file meta exceeds the format's limits (" + Layout.MAX_TEXT_CHARS
                    + " characters per text, " + Layout.MAX_ATTRIBUTES + " attributes)");
        }
        for (Map.Entry<String, String> a : meta.attributes().entrySet()) {
            if (a.getKey().isEmpty() || a.getKey().length() > Layout.MAX_NAME_CHARS || a.getValue().length() > Layout.MAX_TEXT_CHARS) {
                throw new IllegalArgumentException("attribute '" + StoreNames.printable(a.getKey()) + "' exceeds the format's limits ("
                        + Layout.MAX_NAME_CHARS + " characters per key, " + Layout.MAX_TEXT_CHARS + " per value)");
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }
}
