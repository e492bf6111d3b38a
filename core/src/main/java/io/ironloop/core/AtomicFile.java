package io.ironloop.core;

import io.ironloop.format.internal.StoreNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's crash-consistent file replacement, for its stores and for the few files that live beside them
 * (the runtime's completion record): write {@code NAME.tmp}, fsync it, rename it atomically over
 * {@code NAME}, fsync the directory. A crash at any moment leaves the old file or the new one, never a torn
 * one, and at worst a stray temporary that is never read.
 *
 * <p>Threading: stateless; callers serialise writes of one file. Failure: I/O errors are thrown after the
 * temporary is removed; the old file is then untouched.
 */
public final class AtomicFile {
    /** The logger, obtained on first use: a run with nothing to log never initialises SLF4J (its provider lookup scans the class path). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(AtomicFile.class);
    }

    private AtomicFile() {
    }

    /** The temporary a replacement of {@code target} is written to before the rename. */
    public static Path temporary(Path target) {
        return target.resolveSibling(target.getFileName() + StoreNames.TEMP_SUFFIX);
    }

    /**
     * Replaces {@code target} with {@code content} durably, creating its directory if needed.
     *
     * @throws IOException if the file cannot be written; {@code target} is then unchanged
     */
    public static void replace(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = temporary(target);
        boolean done = false;
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            publish(ch, temp, target, true);
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Makes a fully written temporary visible under its final name: fsync, close, atomic rename, fsync of the
     * directory. The one implementation of that step, used by the directory store for every data file and
     * commit record.
     *
     * @param ch the temporary's channel, closed here
     * @param replaceExisting whether an existing {@code target} may be replaced (stores never overwrite)
     */
    public static void publish(FileChannel ch, Path temp, Path target, boolean replaceExisting) throws IOException {
        ch.force(true);
        ch.close();
        if (replaceExisting) {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        fsyncDirectory(target.toAbsolutePath().getParent());
    }

    /** Deletes {@code file} durably (the directory is fsynced); whether it existed. */
    public static boolean delete(Path file) throws IOException {
        if (!Files.deleteIfExists(file)) {
            return false;
        }
        fsyncDirectory(file.toAbsolutePath().getParent());
        return true;
    }

    /** Fsyncs a directory, so that a rename or deletion in it survives a crash. */
    public static void fsyncDirectory(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            // Some file systems refuse fsync on directories; the rename itself is still atomic there.
            Log.LOG.debug("fsync of directory {} not supported: {}", dir, e.toString());
        }
    }
}
