package io.ironloop.core;

import io.ironloop.core.internal.DirectoryStore;
import io.ironloop.core.internal.MemoryStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * Where checkpoint files live: a flat namespace of <em>series</em> (one writer each, such as
 * {@code rank-00003} or {@code global}) holding named files. Every storage level (local directory,
 * memory, and later partner memory, erasure groups, object stores) implements this interface; the
 * engine decides what the files mean.
 *
 * <p>Names are store-relative: {@code series/file}. A file becomes visible only through
 * {@link PendingFile#publish()}, which is atomic and durable: a crash leaves either the old state or the
 * complete new file, never a torn one under the final name.
 */
public interface Store extends AutoCloseable {

    /** A store in a local directory (created if missing), with crash-consistent publishing: temp, fsync, rename, fsync dir. */
    static Store directory(Path dir) {
        return new DirectoryStore(dir);
    }

    /** A store in this JVM's memory: fast, and lost with the process. */
    static Store inMemory() {
        return new MemoryStore();
    }

    /** Human-readable location for messages (a directory path, "memory"). */
    String location();

    /** Names of the series present. */
    List<String> listSeries() throws IOException;

    /** Store-relative names of the published files of {@code series}, in name order. */
    List<String> listFiles(String series) throws IOException;

    /**
     * Size of a published file in bytes.
     *
     * @throws io.ironloop.format.CorruptCheckpointException when what is under the name cannot be a published file
     *     (for a directory store: anything but a regular file)
     */
    long size(String name) throws IOException;

    /**
     * Opens a published file for reading. Never blocks on what is under the name: a directory store opens only
     * regular files and follows no symbolic link (see {@link io.ironloop.RegularFiles}).
     *
     * @throws io.ironloop.format.CorruptCheckpointException when what is under the name cannot be a published file
     *     (a named pipe, device, socket, directory or symbolic link): damage, handled like a corrupt file
     * @throws java.nio.file.NoSuchFileException when there is no such file
     */
    SeekableByteChannel openRead(String name) throws IOException;

    /** Starts writing {@code name} under a temporary name; nothing is visible until {@link PendingFile#publish()}. */
    PendingFile create(String name) throws IOException;

    /**
     * Starts writing {@code name} like {@link #create(String)}, for a file that this machine will not read back
     * soon, such as a save made because the process is about to be stopped: the store may write it past its
     * caches. A directory store uses direct I/O where the platform and file system have it, so the bytes go
     * to the disk without the kernel first allocating and filling a page-cache page for each 4 KiB. By
     * default, {@link #create(String)}.
     */
    default PendingFile createUncached(String name) throws IOException {
        return create(name);
    }

    /** The buffer a copy through {@link #copyFrom} reads into, at most: large enough that a syscall moves many pages. */
    int COPY_BUFFER = 8 << 20;

    /**
     * Publishes the bytes of {@code source} (from position 0 to its size) as {@code name} and returns once they are
     * published here (durably, like {@link PendingFile#publish()}). How a remote level takes a copy of a line's file
     * while the local store may already be removing it: the caller opened the channel first, and an open file stays
     * readable. A store that can resume a copy interrupted by a crash (an object store's multipart upload) overrides
     * it; by default the bytes go through {@link #create(String)} and {@link PendingFile#publish()}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code name} is already published here
     */
    default void copyFrom(SeekableByteChannel source, String name) throws IOException {
        try (PendingFile out = create(name)) {
            // direct: a heap buffer would be copied once more into the JDK's own direct buffer on every write
            ByteBuffer b = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(COPY_BUFFER, source.size())));
            source.position(0);
            while (source.read(b) >= 0) {
                b.flip();
                while (b.hasRemaining()) {
                    out.channel().write(b);
                }
                b.clear();
            }
            out.publish();
        }
    }

    /**
     * {@link #copyFrom} for a copy that this machine will not read back soon (a remote level's copy of a line, read
     * back by a restart elsewhere): the store may write it past its caches, as {@link #createUncached(String)}. By
     * default, {@link #copyFrom}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code name} is already published here
     */
    default void copyUncachedFrom(SeekableByteChannel source, String name) throws IOException {
        copyFrom(source, name);
    }

    /** Removes a published file (durably). */
    void delete(String name) throws IOException;

    /**
     * Takes the exclusive write lock of {@code series}, held until the returned handle is closed.
     *
     * @throws StoreLockedException if another job or engine holds it
     */
    AutoCloseable lock(String series) throws IOException;

    /** Removes temporaries a crashed writer left in {@code series}; returns how many. */
    int removeTemporaries(String series) throws IOException;

    @Override
    void close();

    /** A file being written. */
    interface PendingFile extends AutoCloseable {
        /** Where to write; sequential writes from position 0. */
        WritableByteChannel channel();

        /** Makes the file durable and visible under its final name, atomically. */
        void publish() throws IOException;

        /** Discards the temporary (if not published). Never throws. */
        @Override
        void close();
    }
}
