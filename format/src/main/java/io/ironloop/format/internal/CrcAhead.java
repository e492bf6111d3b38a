package io.ironloop.format.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * Computes the CRC32C of the next chunk on a helper thread while the writer's thread writes the
 * current one, so the checksum costs no time on the write path when a core is free. Whoever reaches a
 * task first computes it: if the helper has not started it when the writer needs the value, the
 * writer computes it itself, so a busy or absent helper never makes the writer wait for nothing.
 * The helper is the common {@link ForkJoinPool} (on one-processor machines everything runs inline).
 */
final class CrcAhead {
    private static final boolean PARALLEL = Runtime.getRuntime().availableProcessors() > 1;
    private final Executor helper;

    CrcAhead() {
        this(PARALLEL ? ForkJoinPool.commonPool() : null);
    }

    /** @param helper where lookahead checksums run, or null to compute every checksum inline */
    CrcAhead(Executor helper) {
        this.helper = helper;
    }

    /** Starts checksumming {@code bytes}' remaining bytes, which must not change until {@link Task#join()} returns. */
    Task start(ByteBuffer bytes) {
        Task t = new Task(bytes.duplicate());
        if (helper != null) {
            try {
                helper.execute(t);
            } catch (RejectedExecutionException e) {
                // computed inline by join()
            }
        }
        return t;
    }

    /** One pending checksum. */
    static final class Task implements Runnable {
        private final ByteBuffer bytes;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch done = new CountDownLatch(1);
        private int crc;

        private Task(ByteBuffer bytes) {
            this.bytes = bytes;
        }

        @Override
        public void run() {
            if (claimed.compareAndSet(false, true)) {
                compute();
            }
        }

        /** The CRC32C, computed here if the helper has not started it. */
        int join() {
            if (claimed.compareAndSet(false, true)) {
                compute();
            } else {
                boolean interrupted = false;
                while (true) {
                    try {
                        done.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return crc;
        }

        private void compute() {
            CRC32C c = new CRC32C();
            c.update(bytes);
            crc = (int) c.getValue();
            done.countDown();
        }
    }
}
