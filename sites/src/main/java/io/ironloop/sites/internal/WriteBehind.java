package io.ironloop.sites.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Sends a file being received to the disk while the rest of it still arrives: every {@link #STEP} bytes written, a
 * background {@code fdatasync} of what is written so far starts (unless the previous one still runs), so the fsync
 * that publishes the file ({@code Store.PendingFile.publish}) finds little left to write. Without it the disk sits idle
 * while the bytes cross the link and the link sits idle while the disk writes the whole file at the end: the two take
 * one after the other what they can take side by side. Durability is unchanged — nothing is acknowledged before the
 * publishing fsync — only the wait for it is shorter.
 *
 * <p>Threading: one receiving thread calls {@link #written} and {@link #finish}; the syncs run on shared daemon threads
 * (at most one per file at a time). Every sync is checked: {@link #finish} rethrows the last one's failure, and a
 * failed sync stops later ones (the file is failed anyway).
 */
final class WriteBehind {
    /** Bytes between two background syncs. */
    static final long STEP = 8L << 20;
    private static final ExecutorService SYNCS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ironloop-sites-write-behind");
        t.setDaemon(true);
        return t;
    });

    private final FileChannel file;
    private long sinceSync;
    private Future<?> sync;

    private WriteBehind(FileChannel file) {
        this.file = file;
    }

    /** Write-behind for {@code channel} when it is a file, else one that does nothing. */
    static WriteBehind of(WritableByteChannel channel) {
        return new WriteBehind(channel instanceof FileChannel f ? f : null);
    }

    /** Counts {@code n} more bytes written; starts a background sync when {@link #STEP} were written since the last. */
    void written(int n) {
        if (file == null) {
            return;
        }
        sinceSync += n;
        if (sinceSync >= STEP && (sync == null || sync.isDone() && !failed(sync))) {
            sinceSync = 0;
            sync = SYNCS.submit(() -> {
                file.force(false);
                return null;
            });
        }
    }

    private static boolean failed(Future<?> f) {
        try {
            f.get();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * Waits for the background sync still running, if any; call it before the file is published. A background sync that
     * failed fails the file here: Linux reports a write-back error to one fsync of a file descriptor only, so the
     * publishing fsync on the same descriptor might not see it again.
     *
     * @throws IOException the background sync's failure
     */
    void finish() throws IOException {
        if (sync == null) {
            return;
        }
        try {
            sync.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("writing a received file to the disk failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while a received file was written to the disk");
        }
    }
}
