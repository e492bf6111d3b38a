package io.ironloop;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one way Ironloop opens a file it reads but did not just create (checkpoint data files, commit
 * records): only a regular file is opened, and a symbolic link is never followed. Opening a named pipe
 * (FIFO) for reading blocks until some other process opens it for writing, and a device can yield
 * endless bytes, so either would hang or exhaust a reader; a symbolic link could lead a reader out of
 * the directory it was asked to read. Directories above the file may be symbolic links (a checkpoint
 * folder on another disk); only the last component is checked.
 *
 * <p>The check reads the file's attributes without following links, then opens it with
 * {@link LinkOption#NOFOLLOW_LINKS}, so a link swapped in between is refused by the open itself. A FIFO
 * swapped in between the two steps by someone with write access to the directory can still block the
 * open: the JDK offers no non-blocking open. Thread-safe (stateless).
 */
public final class RegularFiles {
    /** The file-type bits of a POSIX {@code st_mode} and the types told apart in messages. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;

    private RegularFiles() {
    }

    /**
     * Opens {@code file} for reading.
     *
     * @throws NotRegularFileException when {@code file} is a named pipe, a device, a socket, a directory or
     *     a symbolic link
     * @throws java.nio.file.NoSuchFileException when it does not exist
     * @throws IOException when the file system fails
     */
    public static FileChannel openRead(Path file) throws IOException {
        check(file);
        return FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * The size of {@code file} in bytes, read without opening it.
     *
     * @throws NotRegularFileException when it is not a regular file (see {@link #openRead})
     * @throws java.nio.file.NoSuchFileException when it does not exist
     */
    public static long size(Path file) throws IOException {
        return check(file).size();
    }

    /**
     * The attributes of {@code file} (not following a link), after checking that it is a regular file.
     *
     * @throws NotRegularFileException when it is not (see {@link #openRead})
     * @throws java.nio.file.NoSuchFileException when it does not exist
     */
    public static BasicFileAttributes check(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            throw new NotRegularFileException(file, kind(file, a));
        }
        return a;
    }

    /** What a file that is not regular is, for messages. */
    private static String kind(Path file, BasicFileAttributes a) {
        if (a.isSymbolicLink()) {
            return "a symbolic link";
        }
        if (a.isDirectory()) {
            return "a directory";
        }
        try {
            // the "unix" attribute view (Linux, macOS) tells the kinds apart; elsewhere the generic answer stands
            int type = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT;
            switch (type) {
                case S_IFIFO:
                    return "a named pipe (FIFO)";
                case S_IFCHR:
                    return "a character device";
                case S_IFBLK:
                    return "a block device";
                case S_IFSOCK:
                    return "a socket";
                default:
                    break;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            // no unix view: fall through
        }
        return "a named pipe (FIFO), device or socket";
    }

    /** A file Ironloop was to read is not a regular file, so it was not opened. */
    public static final class NotRegularFileException extends FileSystemException {
        private static final long serialVersionUID = 1L;

        NotRegularFileException(Path file, String kind) {
            super(file.toString(), null, "is " + kind + ", not a regular file; Ironloop reads only regular files"
                    + " (symbolic links are not followed): replace it with the file itself or remove it");
        }
    }
}
