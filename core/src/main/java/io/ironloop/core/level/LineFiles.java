package io.ironloop.core.level;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.internal.LineCatalog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The one rule for copying a committed line between two stores, used both ways (to a remote level and back):
 * the earlier files the line references, then its data file, then — only once those are published at the
 * target — its commit record. A file the target already holds with the right size is kept (a copy resumed
 * after a crash); an uncommitted leftover of another size is replaced. So a crash at any moment leaves the
 * target with either the complete line or no commit record for it, never a commit record without its data.
 */
final class LineFiles {
    private LineFiles() {
    }

    /**
     * Copies {@code line} from {@code from} to {@code to}; returns the bytes copied (files already there not counted).
     * Every source file is opened before the first byte is copied, so the source's retention removing the line
     * meanwhile does not stop the copy.
     *
     * @throws java.nio.file.NoSuchFileException when the source no longer holds a file of the line
     */
    static long copy(LineInfo line, Store from, Store to) throws IOException {
        return copy(line, from, to, 0, false);
    }

    /**
     * {@link #copy(LineInfo, Store, Store)} reading at most {@code bytesPerSecond} from {@code from} (0: no limit), so a
     * level's background copies leave the rest of the disk's and the network's bandwidth to the application; with
     * {@code uncached}, through {@link Store#copyUncachedFrom} (a copy to a remote level, not read back here).
     */
    static long copy(LineInfo line, Store from, Store to, long bytesPerSecond, boolean uncached) throws IOException {
        List<String> present = to.listFiles(line.series());
        String commit = LineCatalog.commitFile(line.series(), line.sequence());
        if (present.contains(commit)) {
            return 0;
        }
        List<String> names = new ArrayList<>(new TreeSet<>(line.references()));
        names.add(line.dataFile());
        names.add(commit); // last: the line is committed at the target only once everything before it is published there
        Map<String, SeekableByteChannel> open = new LinkedHashMap<>();
        try {
            for (String f : names) {
                open.put(f, from.openRead(f));
            }
            long bytes = 0;
            for (Map.Entry<String, SeekableByteChannel> e : open.entrySet()) {
                String f = e.getKey();
                long want = e.getValue().size();
                if (present.contains(f) && !f.equals(commit)) {
                    if (to.size(f) == want) {
                        continue;
                    }
                    to.delete(f); // an uncommitted leftover of another write: never read, safe to replace
                }
                SeekableByteChannel source = bytesPerSecond > 0 ? new Throttled(e.getValue(), bytesPerSecond) : e.getValue();
                if (uncached) {
                    to.copyUncachedFrom(source, f);
                } else {
                    to.copyFrom(source, f);
                }
                long size = to.size(f);
                if (size != want) {
                    throw new IOException("the copy of " + f + " in " + to.location() + " has " + size + " bytes, the original in "
                            + from.location() + " " + want + ": remove the copy and retry");
                }
                bytes += size;
            }
            return bytes;
        } finally {
            for (SeekableByteChannel ch : open.values()) {
                ch.close();
            }
        }
    }

    /** A read channel that sleeps as needed to stay at or below a rate (averaged since its first read). */
    private static final class Throttled implements SeekableByteChannel {
        private final SeekableByteChannel in;
        private final long bytesPerSecond;
        private long start = -1;
        private long read;

        Throttled(SeekableByteChannel in, long bytesPerSecond) {
            this.in = in;
            this.bytesPerSecond = bytesPerSecond;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (start < 0) {
                start = System.nanoTime();
            }
            long ahead = (long) (read * 1e9 / bytesPerSecond) - (System.nanoTime() - start);
            if (ahead > 0) {
                try {
                    Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while keeping a level's copy under " + bytesPerSecond + " B/s");
                }
            }
            int n = in.read(dst);
            read += Math.max(0, n);
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public long position() throws IOException {
            return in.position();
        }

        @Override
        public SeekableByteChannel position(long p) throws IOException {
            in.position(p);
            return this;
        }

        @Override
        public long size() throws IOException {
            return in.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return in.isOpen();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
