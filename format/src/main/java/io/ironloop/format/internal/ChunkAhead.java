package io.ironloop.format.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.zip.CRC32C;

/**
 * Prepares the next chunk on a helper thread while the writer's thread writes the current one: fetches its
 * bytes (for a streamed entry, the copy from the caller's object into a chunk buffer), checks whether they are
 * all zero and computes their CRC32C. So the fill and the checksum cost no time on the write path when a core
 * is free, and a write that waits for the device (direct I/O) overlaps with the next chunk's copy. Whoever
 * reaches a task first runs it: if the helper has not started it when the writer needs the result, the writer
 * runs it itself, so a busy or absent helper never makes the writer wait for nothing. The helper is the common
 * {@link ForkJoinPool} (on one-processor machines everything runs inline).
 */
final class ChunkAhead {
    private static final boolean PARALLEL = Runtime.getRuntime().availableProcessors() > 1;
    private final Executor helper;

    ChunkAhead() {
        this(PARALLEL ? ForkJoinPool.commonPool() : null);
    }

    /** @param helper where chunks are prepared ahead, or null to prepare every chunk inline */
    ChunkAhead(Executor helper) {
        this.helper = helper;
    }

    /**
     * Starts preparing the chunk {@code fetch} returns; its bytes must not change until {@link Task#join()}
     * returns and until the writer has written them.
     */
    Task start(Supplier<ByteBuffer> fetch) {
        Task t = new Task(fetch);
        if (helper != null) {
            try {
                helper.execute(t);
            } catch (RejectedExecutionException e) {
                // run inline by join()
            }
        }
        return t;
    }

    /** One chunk being prepared. */
    static final class Task implements Runnable {
        private final Supplier<ByteBuffer> fetch;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch done = new CountDownLatch(1);
        private ByteBuffer bytes;
        private boolean zero;
        private int crc;
        private Throwable failure;

        private Task(Supplier<ByteBuffer> fetch) {
            this.fetch = fetch;
        }

        @Override
        public void run() {
            if (claimed.compareAndSet(false, true)) {
                compute();
            }
        }

        /**
         * Waits for the chunk (preparing it here if the helper has not started) and returns its bytes.
         *
         * @throws RuntimeException or Error as fetching the chunk threw it
         */
        ByteBuffer join() {
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
            if (failure instanceof RuntimeException e) {
                throw e;
            } else if (failure instanceof Error e) {
                throw e;
            }
            return bytes;
        }

        /** Whether the chunk is all zero (valid after {@link #join()}). */
        boolean zero() {
            return zero;
        }

        /** The chunk's CRC32C, 0 for a zero chunk (valid after {@link #join()}). */
        int crc() {
            return crc;
        }

        private void compute() {
            try {
                bytes = fetch.get();
                zero = ZeroBytes.isZero(bytes);
                if (!zero) {
                    CRC32C c = new CRC32C();
                    c.update(bytes.duplicate());
                    crc = (int) c.getValue();
                }
            } catch (RuntimeException | Error e) {
                failure = e;
            } finally {
                done.countDown();
            }
        }
    }
}
