package io.ironloop.core.internal;

import io.ironloop.ConfigurationException;
import io.ironloop.RegularFiles;
import io.ironloop.core.AtomicFile;
import io.ironloop.core.Store;
import io.ironloop.core.StoreLockedException;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.internal.StoreNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store in a local directory: one sub-directory per series. Publishing is crash-consistent: write
 * {@code name.tmp}, fsync it, rename it atomically to {@code name}, fsync the directory.
 */
public final class DirectoryStore implements Store {
    /** The logger, obtained on first use: a run with nothing to log never initialises SLF4J (its provider lookup scans the class path). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(DirectoryStore.class);
    }

    /** On Linux, a symbolic link to this process's directory, named by its id. */
    private static final Path PROC_SELF = Path.of("/proc/self");
    private final Path root;

    public DirectoryStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
        if (Files.exists(this.root) && !Files.isDirectory(this.root)) {
            throw new ConfigurationException("checkpoint folder " + this.root + " exists but is not a directory: choose another FT_FOLDER");
        }
        try {
            if (!Files.isDirectory(this.root)) {
                Files.createDirectories(this.root);
                AtomicFile.fsyncDirectory(this.root.getParent());
            }
        } catch (IOException e) {
            throw new ConfigurationException("cannot create checkpoint folder " + this.root + ": " + e.getMessage()
                    + " (check FT_FOLDER and permissions)", e);
        }
        if (!Files.isWritable(this.root)) {
            throw new ConfigurationException("checkpoint folder " + this.root + " is not writable: fix its permissions or choose another FT_FOLDER");
        }
    }

    /** The directory. */
    public Path root() {
        return root;
    }

    @Override
    public String location() {
        return root.toString();
    }

    @Override
    public List<String> listSeries() throws IOException {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (!n.startsWith(".")) {
                    out.add(n);
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    @Override
    public List<String> listFiles(String series) throws IOException {
        Path dir = root.resolve(StoreNames.checkSeries(series));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) { // a loop, not a stream: no lambdas to link at open
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (!n.startsWith(".") && !n.endsWith(StoreNames.TEMP_SUFFIX)) {
                    out.add(series + "/" + n);
                }
            }
        }
        Collections.sort(out);
        return Collections.unmodifiableList(out);
    }

    /**
     * {@inheritDoc}
     *
     * @throws CorruptCheckpointException when what is under the name is not a regular file (see {@link #openRead})
     */
    @Override
    public long size(String name) throws IOException {
        try {
            return RegularFiles.size(path(name));
        } catch (RegularFiles.NotRegularFileException e) {
            throw notRegular(name, e);
        }
    }

    /**
     * {@inheritDoc} Only regular files are opened, and a symbolic link is not followed ({@link RegularFiles}): a
     * store publishes nothing else, and a named pipe would block the reader forever.
     *
     * @throws CorruptCheckpointException when what is under the name is a named pipe, device, socket, directory
     *     or symbolic link: damage, which readers treat like any other (fall back, report)
     */
    @Override
    public SeekableByteChannel openRead(String name) throws IOException {
        try {
            return RegularFiles.openRead(path(name));
        } catch (RegularFiles.NotRegularFileException e) {
            throw notRegular(name, e);
        }
    }

    private static CorruptCheckpointException notRegular(String name, RegularFiles.NotRegularFileException e) {
        return new CorruptCheckpointException(name, 0, e.getReason(), e);
    }

    @Override
    public PendingFile create(String name) throws IOException {
        Path target = prepare(name);
        Path temp = AtomicFile.temporary(target);
        FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        return new Temporary(temp, target, ch, () -> ch);
    }

    /**
     * {@inheritDoc} Here, from a file: {@link FileChannel#transferTo}, so the kernel copies the bytes from file to file
     * ({@code sendfile}/{@code copy_file_range} on Linux) without passing them through this process; from any other
     * channel (a throttled one, an object store's), through a buffer as by default.
     */
    @Override
    public void copyFrom(SeekableByteChannel source, String name) throws IOException {
        if (!(source instanceof FileChannel in)) {
            Store.super.copyFrom(source, name);
            return;
        }
        try (PendingFile out = create(name)) {
            long size = in.size();
            for (long at = 0; at < size; ) {
                long n = in.transferTo(at, size - at, out.channel());
                if (n <= 0) {
                    throw new IOException("the source of " + name + " ended at byte " + at + " of " + size);
                }
                at += n;
            }
            out.publish();
        }
    }

    /** The source's bytes mapped at a time by {@link #copyUncachedFrom}: a multiple of any block size, well below 2 GiB. */
    static final long COPY_WINDOW = 64L << 20;

    /**
     * {@inheritDoc} Here, from a file: each window of {@link #COPY_WINDOW} bytes of the source is mapped in place and
     * written with {@code O_DIRECT} ({@link #createUncached}), so the device reads the bytes straight from the source's
     * page-cache pages: no copy through this process, none into a page cache of the copy (the copy of a file
     * {@link #copyFrom} makes costs a read besides the write). Where direct I/O is missing the kernel copies from the
     * mapping as a write does. From any other channel (a throttled one), as {@link #copyFrom}.
     */
    @Override
    public void copyUncachedFrom(SeekableByteChannel source, String name) throws IOException {
        if (!(source instanceof FileChannel in)) {
            copyFrom(source, name);
            return;
        }
        try (PendingFile out = createUncached(name)) {
            long size = in.size();
            for (long at = 0; at < size; at += COPY_WINDOW) {
                ByteBuffer window = in.map(FileChannel.MapMode.READ_ONLY, at, Math.min(COPY_WINDOW, size - at));
                while (window.hasRemaining()) {
                    out.channel().write(window);
                }
            }
            if (in.size() != size) {
                throw new IOException("the source of " + name + " changed size while it was copied: " + size + " then " + in.size()
                        + " bytes");
            }
            out.publish();
        }
    }

    /**
     * {@inheritDoc} Here: with {@code O_DIRECT} ({@link UncachedFile}) where the platform and file system have it,
     * else as {@link #create(String)}.
     */
    @Override
    public PendingFile createUncached(String name) throws IOException {
        Path target = prepare(name);
        Path temp = AtomicFile.temporary(target);
        UncachedFile ch = UncachedFile.create(temp);
        if (ch == null) {
            return create(name);
        }
        return new Temporary(temp, target, ch, ch::finish);
    }

    /**
     * A file written under its temporary name and published under its own atomically; closed unpublished, the
     * temporary is removed. Both ways of creating a file here make one.
     */
    private static final class Temporary implements PendingFile {
        /** The channel holding every byte written, ready to be fsynced and published. */
        private interface Finish {
            FileChannel finish() throws IOException;
        }

        private final Path temp;
        private final Path target;
        private final WritableByteChannel ch;
        private final Finish finish;
        private boolean published;

        Temporary(Path temp, Path target, WritableByteChannel ch, Finish finish) {
            this.temp = temp;
            this.target = target;
            this.ch = ch;
            this.finish = finish;
        }

        @Override
        public WritableByteChannel channel() {
            return ch;
        }

        @Override
        public void publish() throws IOException {
            AtomicFile.publish(finish.finish(), temp, target, false);
            published = true;
        }

        @Override
        public void close() {
            try {
                ch.close();
                if (!published) {
                    Files.deleteIfExists(temp);
                }
            } catch (IOException e) {
                Log.LOG.warn("could not remove temporary {}: {}", temp, e.toString());
            }
        }
    }

    /** The path of {@code name}, after creating its directory and checking that nothing is published there. */
    private Path prepare(String name) throws IOException {
        Path target = path(name);
        Path dir = target.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            AtomicFile.fsyncDirectory(root);
        }
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null, "a published file is never overwritten");
        }
        return target;
    }

    @Override
    public void delete(String name) throws IOException {
        AtomicFile.delete(path(name));
    }

    @Override
    public AutoCloseable lock(String series) throws IOException {
        Path dir = root.resolve(StoreNames.checkSeries(series));
        Files.createDirectories(dir);
        Path lockFile = dir.resolve(LineCatalog.LOCK_FILE);
        FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            String holder = holder(ch);
            ch.close();
            throw new StoreLockedException("series " + series + " in " + root + " is being written by another engine (" + holder
                    + "): two jobs must not share a checkpoint folder and series; stop the other job or choose another FT_FOLDER");
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(("pid " + pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        FileLock held = lock;
        return () -> {
            held.release();
            ch.close();
        };
    }

    @Override
    public int removeTemporaries(String series) throws IOException {
        Path dir = root.resolve(StoreNames.checkSeries(series));
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) { // no glob: it would compile a regular expression
            for (Path p : ds) {
                if (!p.getFileName().toString().endsWith(StoreNames.TEMP_SUFFIX)) {
                    continue;
                }
                Files.deleteIfExists(p);
                Log.LOG.info("removed stray temporary {} left by an interrupted write", p);
                n++;
            }
        }
        if (n > 0) {
            AtomicFile.fsyncDirectory(dir);
        }
        return n;
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "DirectoryStore[" + root + "]";
    }

    private Path path(String name) {
        return root.resolve(StoreNames.check(name));
    }

    /**
     * This process's id, which the lock file records: read from {@code /proc/self} where there is one (Linux), else
     * {@link ProcessHandle}'s, whose first use in a JVM sets up the JDK's process reaper (10–15 ms in a new JVM).
     */
    private static long pid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(PROC_SELF).toString());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().pid(); // no procfs (or not a number there): the portable way
        }
    }

    private static String holder(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(64);
            ch.read(b, 0);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
            return s.isEmpty() ? "holder unknown" : s;
        } catch (IOException e) {
            return "holder unknown";
        }
    }
}
