package io.ironloop.core.level;

import io.ironloop.core.Store;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.internal.ChannelIo;
import io.ironloop.format.internal.FileTrailer;
import io.ironloop.format.internal.Layout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Some entries of a line's data file, for a restart that needs only those from another rank's store: the header, the
 * manifest and the trailer (which {@code open} checks with their CRC32Cs) and the stored chunks of the entries asked for
 * (each checked with its CRC32C when read), at their offsets in a file of the original size. Read through
 * {@link #channel}, a read of any byte that was not sent fails as damage ({@link CorruptCheckpointException}), so a
 * part is never taken for the whole file (never fails open).
 *
 * <p>As it travels (little-endian): magic, the file's size ({@code long}), the number of ranges ({@code int}), then per
 * range its offset ({@code long}), length ({@code int}) and bytes. Immutable.
 */
final class LinePart {
    private static final int MAGIC = 0x5450_4C49; // "ILPT" read little-endian

    private final String name;
    private final long size;
    private final TreeMap<Long, ByteBuffer> ranges;

    private LinePart(String name, long size, TreeMap<Long, ByteBuffer> ranges) {
        this.name = name;
        this.size = size;
        this.ranges = ranges;
    }

    /**
     * The part of {@code name} in {@code store} that holds {@code entries} (those it has), encoded to send; empty when the
     * file is differential (its chunks in earlier files): then the whole file is sent instead.
     */
    static Optional<ByteBuffer> read(Store store, String name, Collection<String> entries) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            CheckpointReader reader = CheckpointReader.open(ch, name, store::openRead); // the header, manifest and trailer checked
            long size = ch.size();
            ByteBuffer trailerBytes = ByteBuffer.allocate(Layout.TRAILER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            ChannelIo.readFully(ch, size - Layout.TRAILER_SIZE, trailerBytes, name);
            long manifest = FileTrailer.decode(trailerBytes.flip(), name, size).manifestOffset();
            TreeMap<Long, Long> wanted = new TreeMap<>(Map.of(0L, (long) Layout.PAYLOAD_START, manifest, size - manifest));
            for (String entry : entries) {
                Optional<EntryDescriptor> d = reader.manifest().entry(entry);
                if (d.isEmpty()) {
                    continue;
                }
                for (ChunkDescriptor c : d.get().chunks()) {
                    if (c.file() != null) {
                        return Optional.empty();
                    }
                    if (!c.zero() && c.storedLength() > 0) {
                        wanted.put(c.offset(), c.storedLength());
                    }
                }
            }
            int bytes = Integer.BYTES * 2 + Long.BYTES;
            for (long length : wanted.values()) {
                bytes = Math.addExact(bytes, Math.toIntExact(Long.BYTES + Integer.BYTES + length));
            }
            ByteBuffer out = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC).putLong(size).putInt(wanted.size());
            for (Map.Entry<Long, Long> r : wanted.entrySet()) {
                out.putLong(r.getKey()).putInt(r.getValue().intValue());
                ByteBuffer range = out.slice(out.position(), r.getValue().intValue());
                ChannelIo.readFully(ch, r.getKey(), range, name);
                out.position(out.position() + r.getValue().intValue());
            }
            return Optional.of(out.flip());
        }
    }

    /**
     * Whether {@code message} is a part rather than a whole file: a data file starts with the format's header magic, never
     * with this one.
     */
    static boolean isPart(ByteBuffer message) {
        return message.remaining() >= Integer.BYTES && message.order(ByteOrder.LITTLE_ENDIAN).getInt(message.position()) == MAGIC;
    }

    /**
     * Decodes a part of {@code name} that {@link #read} encoded.
     *
     * @throws CorruptCheckpointException when the message is malformed or a range lies outside the file
     */
    static LinePart decode(String name, ByteBuffer message, String from) {
        ByteBuffer b = message.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (b.getInt() != MAGIC) {
                throw new CorruptCheckpointException(name, 0, "the part of it sent by " + from + " is not a line part (bad magic)");
            }
            long size = b.getLong();
            int count = b.getInt();
            TreeMap<Long, ByteBuffer> ranges = new TreeMap<>();
            long end = 0;
            for (int i = 0; i < count; i++) {
                long offset = b.getLong();
                int length = b.getInt();
                if (offset < end || length < 0 || offset + length > size) {
                    throw new CorruptCheckpointException(name, offset, "the part of it sent by " + from + " has a range of " + length
                            + " bytes at offset " + offset + " that overlaps another or lies outside its " + size + " bytes");
                }
                ranges.put(offset, b.slice(b.position(), length).asReadOnlyBuffer());
                b.position(b.position() + length);
                end = offset + length;
            }
            return new LinePart(name, size, ranges);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new CorruptCheckpointException(name, 0, "the part of it sent by " + from + " is truncated", e);
        }
    }

    /** The size of the whole file. */
    long size() {
        return size;
    }

    /** A read-only channel over the file: the bytes held, and damage anywhere else. */
    SeekableByteChannel channel() {
        return new SeekableByteChannel() {
            private long position;
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (position >= size) {
                    return -1;
                }
                Map.Entry<Long, ByteBuffer> r = ranges.floorEntry(position);
                if (r == null || position >= r.getKey() + r.getValue().remaining()) {
                    throw new CorruptCheckpointException(name, position, "only some entries of this line were fetched from another"
                            + " rank, and byte " + position + " is in none of them");
                }
                int at = (int) (position - r.getKey());
                int n = Math.min(dst.remaining(), r.getValue().remaining() - at);
                dst.put(r.getValue().slice(at, n));
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
            public SeekableByteChannel position(long p) {
                position = p;
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
            }
        };
    }
}
