package io.ironloop.sites.internal;

import io.ironloop.core.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The protector's side of {@link ProtectorStore}: carries out one store operation on a local {@link Store} and
 * answers it. A file put here is written under a temporary name and published (fsync, atomic rename) only when
 * its length and CRC32C match what the sender stated; a damaged transfer publishes nothing. While a file arrives, what
 * is written of it goes to the disk in the background ({@code WriteBehind}), so the publishing fsync is short.
 */
public final class StoreService {
    private StoreService() {
    }

    /**
     * Serves {@code op} on {@code store}.
     *
     * @return false when {@code op} is not a store operation (nothing was read or written)
     */
    public static boolean serve(String op, Store store, ProtectorWire w) throws IOException {
        switch (op) {
            case "LIST_SERIES" -> names(w, store.listSeries());
            case "LIST_FILES" -> names(w, store.listFiles(w.in.readUTF()));
            case "SIZE" -> {
                String name = w.in.readUTF();
                long size;
                try {
                    size = store.size(name);
                } catch (IOException e) {
                    fail(w, e.toString());
                    return true;
                }
                w.out.writeBoolean(true);
                w.out.writeLong(size);
            }
            case "READ" -> read(w, store, w.in.readUTF());
            case "PUT" -> put(w, store);
            case "DELETE" -> { // idempotent: a name not (or no longer) published is no error
                store.delete(w.in.readUTF());
                w.out.writeBoolean(true);
            }
            case "REMOVE_TEMPS" -> {
                int n = store.removeTemporaries(w.in.readUTF());
                w.out.writeBoolean(true);
                w.out.writeInt(n);
            }
            default -> {
                return false;
            }
        }
        w.out.flush();
        return true;
    }

    private static void names(ProtectorWire w, List<String> names) throws IOException {
        w.out.writeBoolean(true);
        w.out.writeInt(names.size());
        for (String n : names) {
            w.out.writeUTF(n);
        }
    }

    private static void read(ProtectorWire w, Store store, String name) throws IOException {
        SeekableByteChannel ch;
        try {
            ch = store.openRead(name);
        } catch (IOException e) {
            fail(w, e.toString());
            return;
        }
        try (ch) {
            long length = ch.size();
            w.out.writeBoolean(true);
            w.out.writeLong(length);
            CRC32C crc = new CRC32C();
            ByteBuffer b = ByteBuffer.allocate(ProtectorWire.CHUNK);
            long sent = 0;
            while (sent < length) {
                b.clear();
                int n = ch.read(b);
                if (n < 0) {
                    throw new IOException(name + " shrank while it was read");
                }
                crc.update(b.array(), 0, n);
                w.out.write(b.array(), 0, n);
                sent += n;
            }
            w.out.writeInt((int) crc.getValue());
        }
    }

    /**
     * Receives a file and publishes it. Idempotent, so that a client may send it again when it cannot tell whether the
     * first one arrived (its connection failed before the answer): a name already published with the same length and
     * CRC32C as the bytes received is answered as done (nothing is written); with other bytes it is refused
     * ({@code exists}).
     */
    private static void put(ProtectorWire w, Store store) throws IOException {
        String name = w.in.readUTF();
        long length = w.in.readLong();
        w.timeout(java.time.Duration.ofSeconds(30 + (length >> 20)));
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[ProtectorWire.CHUNK];
        Store.PendingFile out;
        try {
            out = store.create(name);
        } catch (FileAlreadyExistsException e) {
            out = null; // published already: the bytes are read and compared, not written
        }
        boolean published = false;
        WriteBehind behind = out == null ? null : WriteBehind.of(out.channel());
        try {
            long received = 0;
            while (received < length) {
                int n = w.in.read(buffer, 0, (int) Math.min(buffer.length, length - received));
                if (n < 0) {
                    throw new IOException("the sender of " + name + " closed after " + received + " of " + length + " bytes");
                }
                crc.update(buffer, 0, n);
                ByteBuffer b = ByteBuffer.wrap(buffer, 0, n);
                while (out != null && b.hasRemaining()) {
                    out.channel().write(b);
                }
                if (behind != null) {
                    behind.written(n);
                }
                received += n;
            }
            int stated = w.in.readInt();
            if (stated != (int) crc.getValue()) {
                fail(w, name + " arrived damaged: CRC32C " + Integer.toHexString((int) crc.getValue()) + ", the sender stated "
                        + Integer.toHexString(stated) + "; not published");
                w.out.flush();
                return;
            }
            if (out != null) {
                try {
                    behind.finish();
                    out.publish();
                    published = true;
                } catch (FileAlreadyExistsException e) {
                    // published meanwhile (the first of two sends of the same file): compared below
                }
            }
            if (!published && !publishedAlready(store, name, length, stated)) {
                fail(w, "exists: " + name + " is published here with other bytes");
                w.out.flush();
                return;
            }
        } finally {
            if (out != null) {
                out.close();
            }
        }
        w.out.writeBoolean(true);
    }

    /** Whether {@code name} is published in {@code store} with {@code length} bytes of CRC32C {@code crc}. */
    private static boolean publishedAlready(Store store, String name, long length, int crc) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            if (ch.size() != length) {
                return false;
            }
            CRC32C c = new CRC32C();
            ByteBuffer b = ByteBuffer.allocate(ProtectorWire.CHUNK);
            while (ch.read(b.clear()) > 0) {
                c.update(b.flip());
            }
            return (int) c.getValue() == crc;
        }
    }

    /** Answers a refusal with its reason. */
    public static void fail(ProtectorWire w, String why) throws IOException {
        w.out.writeBoolean(false);
        w.out.writeUTF(why.length() > 8000 ? why.substring(0, 8000) : why);
    }
}
