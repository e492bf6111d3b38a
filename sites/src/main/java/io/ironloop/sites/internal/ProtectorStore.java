package io.ironloop.sites.internal;

import io.ironloop.core.Store;
import io.ironloop.group.launch.JobSecret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A {@link Store} on another cluster protector, reached over {@link ProtectorWire}: either the copies of this site's
 * lines that the protector holds ({@link Scope#HELD}) or the protector's own site store ({@link Scope#SITE}, where a
 * recovery puts a lost site's lines). So the existing whole-line copy ({@code LineReplicator}, {@code LineFallback})
 * works across sites unchanged. Every connection is authenticated; operations that follow each other closely reuse one
 * (an idle connection is kept for a quarter of the timeout); a file travels with its CRC32C,
 * which the receiving protector checks before it publishes the file (temp, fsync, rename). Files are read back
 * whole into memory ({@link #openRead}), which bounds a line's file to the heap. In {@link Scope#HELD}, sizes of files it
 * published and small files it published or read are answered without a round trip ({@code Known}).
 *
 * <p>Threading: thread-safe (the idle connections and what it knows are guarded by their own locks).
 */
public final class ProtectorStore implements Store {
    /** Which store of the protector. */
    public enum Scope {
        /** The copies it keeps of the calling site's lines. */
        HELD,
        /** Its own site's store. */
        SITE
    }

    private final InetSocketAddress protector;
    private final String fromSite;
    private final Scope scope;
    private final JobSecret secret;
    private final boolean encrypt;
    private final Duration timeout;
    private final IdleWires idle = new IdleWires();
    /** {@link Scope#HELD} only: what this store published there and has not deleted (see {@link Known}). */
    private final Known known = new Known();

    /**
     * @param protector the protector's address
     * @param fromSite the calling protector's site (names the held store)
     * @param scope which store
     * @param secret the job secret
     * @param timeout for connecting and for every read
     */
    public ProtectorStore(InetSocketAddress protector, String fromSite, Scope scope, JobSecret secret, Duration timeout) {
        this(protector, fromSite, scope, secret, false, timeout);
    }

    /**
     * @param protector the protector's address
     * @param fromSite the calling protector's site (names the held store)
     * @param scope which store
     * @param secret the job secret
     * @param encrypt whether the connections are encrypted ({@code SITE_ENCRYPT}, as the protector's)
     * @param timeout for connecting and for every read
     */
    public ProtectorStore(InetSocketAddress protector, String fromSite, Scope scope, JobSecret secret, boolean encrypt, Duration timeout) {
        this.protector = protector;
        this.fromSite = fromSite;
        this.scope = scope;
        this.secret = secret;
        this.encrypt = encrypt;
        this.timeout = timeout;
    }

    /** One operation on a connection: writes its fields, reads its answer. */
    @FunctionalInterface
    private interface Exchange<T> {
        T on(ProtectorWire w) throws IOException;
    }

    /**
     * Runs one operation on an idle connection of this store if one is fresh enough, else on a new one, and keeps the
     * connection for the next operation (the operations on one line follow each other closely: one handshake instead
     * of one per operation). A reused connection that fails at the connection level (the protector closed it as
     * idle, or it broke while the operation was under way) is replaced by a new one once; a refusal ({@code false}
     * answered) is not retried. The retry is safe although the protector may have carried out the first attempt and
     * only its answer was lost, because every operation is idempotent at the protector: reads and lists change
     * nothing, {@code DELETE} of a name no longer there succeeds, {@code PUT} of bytes already published under the
     * name (same length and CRC32C) is answered as done, {@code REMOVE_TEMPS} removes what is left.
     */
    private <T> T call(String op, Exchange<T> exchange) throws IOException {
        ProtectorWire w = idle.poll(timeout.dividedBy(4));
        if (w != null) {
            try {
                T result = exchange(w, op, exchange);
                idle.offer(w);
                return result;
            } catch (java.io.EOFException | java.net.SocketException e) {
                w.close(); // closed by the protector meanwhile: once more on a new connection
            } catch (IOException | RuntimeException e) {
                w.close();
                throw e;
            }
        }
        w = ProtectorWire.connect(protector, secret, encrypt, timeout);
        try {
            T result = exchange(w, op, exchange);
            idle.offer(w);
            return result;
        } catch (IOException | RuntimeException e) {
            w.close();
            throw e;
        }
    }

    private <T> T exchange(ProtectorWire w, String op, Exchange<T> exchange) throws IOException {
        w.timeout(timeout);
        w.out.writeUTF(op);
        w.out.writeUTF(fromSite);
        w.out.writeUTF(scope.name());
        return exchange.on(w);
    }

    @Override
    public String location() {
        return "protector " + protector.getHostString() + ":" + protector.getPort() + " (" + (scope == Scope.HELD ? "copies of site "
                + fromSite : "its site store") + ")";
    }

    @Override
    public List<String> listSeries() throws IOException {
        return call("LIST_SERIES", w -> {
            w.expectOk("listing series");
            return readNames(w);
        });
    }

    @Override
    public List<String> listFiles(String series) throws IOException {
        return call("LIST_FILES", w -> {
            w.out.writeUTF(series);
            w.expectOk("listing " + series);
            return readNames(w);
        });
    }

    private static List<String> readNames(ProtectorWire w) throws IOException {
        int n = w.in.readInt();
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(w.in.readUTF());
        }
        return names;
    }

    @Override
    public long size(String name) throws IOException {
        Long size = known.size(name);
        if (size != null) {
            return size;
        }
        return call("SIZE", w -> {
            w.out.writeUTF(name);
            w.out.flush();
            if (!w.in.readBoolean()) {
                throw new NoSuchFileException(name, null, w.in.readUTF());
            }
            return w.in.readLong();
        });
    }

    @Override
    public SeekableByteChannel openRead(String name) throws IOException {
        byte[] small = known.bytes(name);
        if (small != null) {
            return new ByteArrayChannel(small);
        }
        return call("READ", w -> {
            w.out.writeUTF(name);
            w.out.flush();
            if (!w.in.readBoolean()) {
                throw new NoSuchFileException(name, null, w.in.readUTF());
            }
            long length = w.in.readLong();
            if (length > Integer.MAX_VALUE - 16) {
                throw new IOException(name + " on " + location() + " has " + length + " bytes; files read back from a protector are limited to 2 GiB");
            }
            w.timeout(timeout.plusSeconds(length >> 20)); // a second more per MiB
            byte[] bytes = w.in.readNBytes((int) length);
            int crc = w.in.readInt();
            CRC32C c = new CRC32C();
            c.update(bytes);
            if (bytes.length != length || (int) c.getValue() != crc) {
                throw new IOException(name + " from " + location() + " arrived damaged (CRC32C " + Integer.toHexString((int) c.getValue())
                        + ", sent " + Integer.toHexString(crc) + ")");
            }
            known.read(name, bytes);
            return new ByteArrayChannel(bytes);
        });
    }

    @Override
    public PendingFile create(String name) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        WritableByteChannel channel = Channels.newChannel(buffer);
        return new PendingFile() {
            @Override
            public WritableByteChannel channel() {
                return channel;
            }

            @Override
            public void publish() throws IOException {
                copyFrom(new ByteArrayChannel(buffer.toByteArray()), name);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Streams the file to the protector, which checks its CRC32C and publishes it atomically and durably. */
    @Override
    public void copyFrom(SeekableByteChannel source, String name) throws IOException {
        call("PUT", w -> {
            long length = source.size();
            w.out.writeUTF(name);
            w.out.writeLong(length);
            CRC32C crc = new CRC32C();
            ByteBuffer b = ByteBuffer.allocate(ProtectorWire.CHUNK);
            ByteArrayOutputStream small = length <= Known.SMALL ? new ByteArrayOutputStream((int) length) : null;
            source.position(0);
            long sent = 0;
            while (sent < length) {
                b.clear();
                int n = source.read(b);
                if (n < 0) {
                    throw new IOException(name + " ended after " + sent + " of " + length + " bytes while it was sent to " + location());
                }
                crc.update(b.array(), 0, n);
                w.out.write(b.array(), 0, n);
                if (small != null) {
                    small.write(b.array(), 0, n);
                }
                sent += n;
            }
            w.out.writeInt((int) crc.getValue());
            w.timeout(timeout.plusSeconds(length >> 20));
            w.out.flush();
            if (!w.in.readBoolean()) {
                String why = w.in.readUTF();
                if (why.startsWith("exists")) {
                    throw new FileAlreadyExistsException(name, null, why);
                }
                throw new IOException("copying " + name + " to " + location() + " failed: " + why);
            }
            known.published(name, length, small == null ? null : small.toByteArray());
            return null;
        });
    }

    @Override
    public void delete(String name) throws IOException {
        known.forget(name);
        call("DELETE", w -> {
            w.out.writeUTF(name);
            w.expectOk("deleting " + name);
            return null;
        });
    }

    /** No lock: the protector of the site below in the ring is the only writer of its held store. */
    @Override
    public AutoCloseable lock(String series) {
        return () -> { };
    }

    @Override
    public int removeTemporaries(String series) throws IOException {
        return call("REMOVE_TEMPS", w -> {
            w.out.writeUTF(series);
            w.expectOk("removing temporaries of " + series);
            return w.in.readInt();
        });
    }

    /** Closes the connections kept for reuse. */
    @Override
    public void close() {
        idle.closeAll();
    }

    /**
     * What this store knows of its files without asking, so that a line's copy does not spend a round trip over the
     * inter-site link on what it already knows: the size of a file it published (the protector acknowledged exactly
     * that many bytes, CRC32C-checked) and the bytes of small files it published or read (commit records, which
     * retention reads back for every held line). Only for {@link Scope#HELD}: the calling protector is the only writer
     * of the copies it keeps there, and a published file is never overwritten, only deleted — through this store, which
     * then forgets it. Thread-safe; bounded (it starts over past {@link #LIMIT} names).
     */
    private final class Known {
        /** Files up to this size are kept whole. */
        static final int SMALL = 64 << 10;
        private static final int LIMIT = 1024;
        private final java.util.Map<String, Long> sizes = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<String, byte[]> bytes = new java.util.concurrent.ConcurrentHashMap<>();

        Long size(String name) {
            return scope == Scope.HELD ? sizes.get(name) : null;
        }

        byte[] bytes(String name) {
            return scope == Scope.HELD ? bytes.get(name) : null;
        }

        void published(String name, long length, byte[] content) {
            if (scope != Scope.HELD) {
                return;
            }
            if (sizes.size() >= LIMIT) {
                sizes.clear();
                bytes.clear();
            }
            sizes.put(name, length);
            if (content != null) {
                bytes.put(name, content);
            }
        }

        void read(String name, byte[] content) {
            if (scope == Scope.HELD && content.length <= SMALL) {
                published(name, content.length, content);
            }
        }

        void forget(String name) {
            sizes.remove(name);
            bytes.remove(name);
        }
    }

    /** Connections kept between operations, newest first, each with when it became idle. Thread-safe. */
    private static final class IdleWires {
        private record Idle(ProtectorWire wire, long since) {
        }

        private final java.util.ArrayDeque<Idle> wires = new java.util.ArrayDeque<>();

        /** An idle connection no older than {@code maxIdle} (older ones are closed), or null. */
        synchronized ProtectorWire poll(Duration maxIdle) {
            for (Idle e = wires.pollFirst(); e != null; e = wires.pollFirst()) {
                if (System.nanoTime() - e.since() <= maxIdle.toNanos()) {
                    return e.wire();
                }
                e.wire().close();
            }
            return null;
        }

        synchronized void offer(ProtectorWire w) {
            wires.addFirst(new Idle(w, System.nanoTime()));
            while (wires.size() > 4) {
                wires.pollLast().wire().close();
            }
        }

        synchronized void closeAll() {
            wires.forEach(e -> e.wire().close());
            wires.clear();
        }
    }

    /** A read-only channel over bytes in memory. */
    static final class ByteArrayChannel implements SeekableByteChannel {
        private final byte[] bytes;
        private int position;
        private boolean open = true;

        ByteArrayChannel(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long p) {
            position = (int) Math.min(p, bytes.length);
            return this;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
