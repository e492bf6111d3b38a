package io.ironloop.runtime.internal.state;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.LinkedHashSet;
import java.util.Set;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;

/**
 * Moves committed lines between stores as their files (data file, commit record and the earlier files a
 * differential line references), so that a copy restores through the engine with every checksum verified.
 * Used to hand rank 0's global line to the other ranks and to read other ranks' series without their lock.
 */
public final class SeriesFiles {
    private static final int MAX_FILES = 1 << 16;

    private SeriesFiles() {
    }

    /** The files of {@code line}: referenced data files, its own data file and its commit record. */
    public static Set<String> filesOf(LineInfo line) {
        Set<String> files = new LinkedHashSet<>(line.references());
        files.add(line.dataFile());
        files.add(commitFile(line));
        return files;
    }

    /** Store-relative name of {@code line}'s commit record. */
    public static String commitFile(LineInfo line) {
        String data = line.dataFile();
        if (!data.endsWith(StoreCatalog.DATA_SUFFIX)) {
            throw new IllegalArgumentException("not a data file name: " + data);
        }
        return data.substring(0, data.length() - StoreCatalog.DATA_SUFFIX.length()) + StoreCatalog.COMMIT_SUFFIX;
    }

    /** Packs {@code files} of {@code store} into one byte array: count, then (name, length, bytes) each. */
    public static byte[] pack(Store store, Set<String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(files.size());
            for (String name : files) {
                long size = store.size(name);
                out.writeUTF(name);
                out.writeLong(size);
                try (SeekableByteChannel ch = store.openRead(name); InputStream in = Channels.newInputStream(ch)) {
                    long copied = in.transferTo(out);
                    if (copied != size) {
                        throw new IOException(store.location() + "/" + name + " changed size while being read: " + size + " then " + copied);
                    }
                }
            }
        }
        return bytes.toByteArray();
    }

    /** Writes the files of a {@link #pack} into {@code store}, each published atomically. */
    public static void unpack(byte[] packed, Store store) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(packed));
        int count = in.readInt();
        if (count < 0 || count > MAX_FILES) {
            throw new IOException("a packed line claims " + count + " files");
        }
        for (int i = 0; i < count; i++) {
            String name = in.readUTF();
            long size = in.readLong();
            if (size < 0 || size > in.available()) {
                throw new IOException("packed file " + name + " claims " + size + " bytes; " + in.available() + " remain");
            }
            byte[] content = in.readNBytes((int) size);
            try (Store.PendingFile f = store.create(name)) {
                WritableByteChannel ch = f.channel();
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                f.publish();
            }
        }
    }

    /** Copies every committed line of {@code series} from {@code from} into {@code to}. */
    public static void copySeries(Store from, String series, Store to) throws IOException {
        Set<String> files = new LinkedHashSet<>();
        for (LineInfo line : StoreCatalog.of(from).lines(series)) {
            files.addAll(filesOf(line));
        }
        unpack(pack(from, files), to);
    }
}
