package io.ironloop.format.internal;

import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.ChunkSink;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

/**
 * Opens, validates and reads one checkpoint file; behind {@link io.ironloop.format.CheckpointReader}.
 * Opening reads only header, trailer and manifest, validating all three completely; chunks are read
 * and checked on demand. Not thread-safe, except that one parallel {@code readEntry} runs helper threads of
 * its own.
 */
public final class ReaderEngine {
    /**
     * The helpers of parallel reads: daemon threads, created on demand and ended after a minute unused, so a
     * restore does not start new threads for every entry.
     */
    private static final AtomicInteger HELPER_NUMBER = new AtomicInteger();
    private static final ExecutorService HELPERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ironloop-read-" + HELPER_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private final SeekableByteChannel channel;
    private final String fileName;
    private final long fileSize;
    private final ChunkResolver resolver;
    private final Manifest manifest;
    private final long chunkSize;
    private final int paddingCrc;
    private final Map<String, EntryDescriptor> byName = new HashMap<>();
    private final ChunkDecoder decoder = new ChunkDecoder();
    private final List<ChunkDecoder> helperDecoders = new ArrayList<>();

    private ReaderEngine(SeekableByteChannel channel, String fileName, long fileSize, ChunkResolver resolver, ParsedManifest parsed) {
        this.channel = channel;
        this.fileName = fileName;
        this.fileSize = fileSize;
        this.resolver = resolver;
        this.manifest = parsed.manifest();
        this.chunkSize = parsed.chunkSize();
        this.paddingCrc = parsed.paddingCrc();
        for (EntryDescriptor e : manifest.entries()) {
            byName.put(e.name(), e);
        }
    }

    /** See {@link io.ironloop.format.CheckpointReader#open}. */
    public static ReaderEngine open(SeekableByteChannel channel, String fileName, ChunkResolver resolver) throws IOException {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(resolver, "resolver");
        long size = channel.size();
        if (size < Layout.HEADER_SIZE) {
            throw new CorruptCheckpointException(fileName, size, "the file is " + size + " bytes long, shorter than a header ("
                    + Layout.HEADER_SIZE + " bytes)");
        }
        ByteBuffer headerBytes = ByteBuffer.allocate(Layout.HEADER_SIZE);
        ChannelIo.readFully(channel, 0, headerBytes, fileName);
        FileHeader header = FileHeader.decode(headerBytes.flip(), fileName);
        if (size < Layout.MIN_FILE_SIZE) {
            throw new CorruptCheckpointException(fileName, size, "the file is " + size + " bytes long, shorter than header, manifest and trailer ("
                    + Layout.MIN_FILE_SIZE + " bytes): truncated");
        }
        ByteBuffer trailerBytes = ByteBuffer.allocate(Layout.TRAILER_SIZE);
        ChannelIo.readFully(channel, size - Layout.TRAILER_SIZE, trailerBytes, fileName);
        FileTrailer trailer = FileTrailer.decode(trailerBytes.flip(), fileName, size);
        byte[] json = new byte[(int) trailer.manifestLength()];
        ChannelIo.readFully(channel, trailer.manifestOffset(), ByteBuffer.wrap(json), fileName);
        CRC32C crc = new CRC32C();
        crc.update(json);
        if ((int) crc.getValue() != trailer.manifestCrc()) {
            throw new ChecksumMismatchException(fileName, trailer.manifestOffset(), "the manifest (" + json.length + " bytes)",
                    trailer.manifestCrc(), (int) crc.getValue());
        }
        ParsedManifest parsed = ManifestParser.parse(json, fileName, trailer.manifestOffset());
        ManifestChecks.validate(parsed, fileName, header, trailer.manifestOffset());
        return new ReaderEngine(channel, fileName, size, resolver, parsed);
    }

    /** The validated manifest. */
    public Manifest manifest() {
        return manifest;
    }

    /** See {@link io.ironloop.format.CheckpointReader#readEntry}. */
    public void readEntry(String name, ByteBuffer target) throws IOException {
        EntryDescriptor entry = entry(name);
        long length = entry.header().byteLength();
        if (target.remaining() != length) {
            throw new IllegalArgumentException("entry " + entry.header() + " has " + length + " bytes but the target has room for "
                    + target.remaining());
        }
        if (target.isReadOnly()) {
            throw new IllegalArgumentException("the target buffer for entry '" + name + "' is read-only");
        }
        ByteBuffer t = target.slice();
        try (ChunkSources sources = sources()) {
            List<ChunkDescriptor> chunks = entry.chunks();
            String label = label(entry);
            for (int i = 0; i < chunks.size(); i++) {
                ChunkDescriptor c = chunks.get(i);
                String where = where(label, c);
                ChunkSources.Source src = c.zero() ? null : sources.sourceOf(c, where);
                decoder.decode(c, src, t, (int) (i * chunkSize), entry.header().type(), where);
            }
        }
    }

    /** See {@link io.ironloop.format.CheckpointReader#readEntry(String, ChunkSink)}. */
    public void readEntry(String name, ChunkSink sink) throws IOException {
        readEntry(name, 1, sink);
    }

    /**
     * See {@link io.ironloop.format.CheckpointReader#readEntry(String, int, ChunkSink)}. The caller's thread and up
     * to {@code threads - 1} helpers (from a shared pool of daemon threads) take the entry's chunks one at a time
     * from a common counter, in file order: a thread the scheduler holds back leaves its share to the others
     * instead of making them wait at the end, and the threads read one forward-moving region of the file, which
     * the kernel's readahead recognises as a sequential read.
     */
    public void readEntry(String name, int threads, ChunkSink sink) throws IOException {
        Objects.requireNonNull(sink, "sink");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        EntryDescriptor entry = entry(name);
        int n = entry.chunks().size();
        int parts = channel instanceof FileChannel ? Math.max(1, Math.min(threads, n)) : 1;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> helpers = new ArrayList<>(parts - 1);
        for (int p = 1; p < parts; p++) {
            ChunkDecoder own = helperDecoder(p - 1);
            helpers.add(HELPERS.submit(() -> readChunks(entry, next, own, sink, failure)));
        }
        readChunks(entry, next, decoder, sink, failure);
        boolean interrupted = false;
        for (Future<?> h : helpers) {
            while (true) {
                try {
                    h.get();
                    break;
                } catch (InterruptedException e) {
                    // returning now would leave helpers reading a channel the caller is about to close
                    interrupted = true;
                } catch (ExecutionException e) {
                    failure.compareAndSet(null, e.getCause());
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable f = failure.get();
        if (f instanceof IOException e) {
            throw e;
        } else if (f instanceof RuntimeException e) {
            throw e;
        } else if (f instanceof Error e) {
            throw e;
        }
    }

    /**
     * The decoder of the {@code i}-th helper thread, kept for the reader's later calls: a fresh one would
     * first-touch a new chunk-sized direct buffer for every entry read.
     */
    private ChunkDecoder helperDecoder(int i) {
        while (helperDecoders.size() <= i) {
            helperDecoders.add(new ChunkDecoder());
        }
        return helperDecoders.get(i);
    }

    /**
     * Delivers the chunks of {@code entry} that this thread claims from {@code next} to {@code sink}, stopping
     * once every chunk is claimed or any part of the read has failed; records this part's failure in
     * {@code failure} unless another came first.
     */
    private void readChunks(EntryDescriptor entry, AtomicInteger next, ChunkDecoder dec, ChunkSink sink,
                            AtomicReference<Throwable> failure) {
        try (ChunkSources sources = sources()) {
            List<ChunkDescriptor> chunks = entry.chunks();
            String label = label(entry);
            for (int i = next.getAndIncrement(); i < chunks.size() && failure.get() == null; i = next.getAndIncrement()) {
                ChunkDescriptor c = chunks.get(i);
                String where = where(label, c);
                ChunkSources.Source src = c.zero() ? null : sources.sourceOf(c, where);
                sink.accept(i * chunkSize, dec.decodeChunk(c, src, entry.header().type(), where));
            }
        } catch (IOException | RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        }
    }

    private EntryDescriptor entry(String name) {
        EntryDescriptor entry = byName.get(Objects.requireNonNull(name, "name"));
        if (entry == null) {
            throw new IllegalArgumentException("no entry '" + name + "' in " + fileName + "; it has " + byName.keySet());
        }
        return entry;
    }

    /** See {@link io.ironloop.format.CheckpointReader#verify()}. */
    public List<CorruptCheckpointException> verify() throws IOException {
        List<CorruptCheckpointException> problems = new ArrayList<>();
        verify((entry, chunk, problem) -> problems.add(problem));
        return List.copyOf(problems);
    }

    /**
     * See {@link io.ironloop.format.CheckpointReader#verify(CheckpointReader.ProblemSink)}: every stored chunk
     * goes through the decoder {@link #readEntry} uses, so verify accepts exactly what a read accepts.
     */
    public void verify(CheckpointReader.ProblemSink sink) throws IOException {
        Objects.requireNonNull(sink, "sink");
        try (ChunkSources sources = sources()) {
            for (EntryDescriptor entry : manifest.entries()) {
                String label = label(entry);
                for (ChunkDescriptor c : entry.chunks()) {
                    if (c.zero()) {
                        continue;
                    }
                    String where = where(label, c);
                    try {
                        decoder.decodeChunk(c, sources.sourceOf(c, where), entry.header().type(), where);
                    } catch (CorruptCheckpointException e) {
                        sink.problem(entry, c, e);
                    }
                }
            }
        }
        CorruptCheckpointException padding = verifyPadding();
        if (padding != null) {
            sink.problem(null, null, padding);
        }
    }

    /** Checks the alignment padding between stored chunks against the manifest's padding CRC32C. */
    private CorruptCheckpointException verifyPadding() throws IOException {
        List<long[]> gaps = ManifestChecks.padding(manifest);
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocate(Layout.ALIGNMENT);
        long firstNonZero = -1;
        long total = 0;
        for (long[] gap : gaps) {
            buf.clear().limit((int) gap[1]);
            ChannelIo.readFully(channel, gap[0], buf, fileName);
            buf.flip();
            crc.update(buf.duplicate());
            total += gap[1];
            for (int i = 0; firstNonZero < 0 && i < buf.limit(); i++) {
                if (buf.get(i) != 0) {
                    firstNonZero = gap[0] + i;
                }
            }
        }
        int computed = (int) crc.getValue();
        if (computed == paddingCrc) {
            return null;
        }
        return new ChecksumMismatchException(fileName, firstNonZero >= 0 ? firstNonZero : gaps.isEmpty() ? Layout.PAYLOAD_START : gaps.get(0)[0],
                "the alignment padding (" + total + " bytes in " + gaps.size() + " gaps)", paddingCrc, computed);
    }

    /** The file's size when it was opened. */
    public long fileSize() {
        return fileSize;
    }

    private ChunkSources sources() {
        return new ChunkSources(new ChunkSources.Source(channel, fileName, fileSize), resolver);
    }

    private static String label(EntryDescriptor entry) {
        return " of entry '" + StoreNames.printable(entry.name()) + "'";
    }

    private String where(String label, ChunkDescriptor c) {
        return c.file() == null ? "chunk " + c.index() + label : "chunk " + c.index() + label + " (referenced by " + fileName + ")";
    }
}
