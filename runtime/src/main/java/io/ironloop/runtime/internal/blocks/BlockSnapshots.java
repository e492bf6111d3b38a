package io.ironloop.runtime.internal.blocks;

import io.ironloop.BufferPool;
import io.ironloop.IronloopException;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.level.BlockImage;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.Snapshot;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.IncompatibleRestartException;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.state.ByteArraySink;
import io.ironloop.runtime.internal.state.ByteArraySource;
import io.ironloop.runtime.internal.state.PooledSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint path of a block loop (waLBerla's Algorithm 2, CreateResilientCheckpoint): every block and
 * the loop's own state write a snapshot into the writable buffers of every level (own memory, partner
 * copies, disk every so often), then one fault-tolerant agreement — the handshake — says whether every
 * rank finished creating and sending it. Only then do the levels commit and the blocks {@code swap()}; a
 * failure before leaves the previous snapshot committed everywhere.
 *
 * <p><b>Off the loop's thread.</b> The loop waits only for the capture: a copy of each block's state into a
 * direct buffer reused from the snapshot before the last. Checksums, the partner copies and the disk line
 * are made by a background writer while the loop computes the next iteration, and the handshake of a snapshot
 * is made at the end of that iteration ({@link #settle}), or when a failure is met first ({@link #abandon}) —
 * at the same point on every rank. Until then the snapshot before stays the committed one, as waLBerla's
 * double buffer requires; a failure in that one iteration rolls back to it. The loop waits at the handshake
 * only for what of the copy one iteration did not cover.
 *
 * <p>The handshake is the one agreement every survivor makes per snapshot or failure: a rank that meets a
 * failure anywhere else joins it with "failed" ({@link #abandon}), so every survivor leaves it with the same
 * verdict and goes to recovery at the same point.
 */
public final class BlockSnapshots implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BlockSnapshots.class);
    /** Handshake proposals; the handshake's allreduce returns the lowest. */
    private static final long FAILED = 0;
    private static final long NOT_KEPT = 1;
    private static final long KEPT = 2;

    private final LevelChain chain;
    private final LoopState loopState;
    private final RuntimeEvents events;
    private final PooledSink sink;
    private final ByteArraySink loopSink = new ByteArraySink();
    private final Map<Long, Integer> lastLength = new HashMap<>();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ironloop-snapshot-writer");
        t.setDaemon(true);
        return t;
    });
    private Pending pending;
    private long committed = -1;
    private long commits;

    /**
     * @param pool where images are captured into; the own-memory level gives replaced snapshots' buffers back to it
     */
    public BlockSnapshots(LevelChain chain, LoopState loopState, RuntimeEvents events, BufferPool pool) {
        this.chain = chain;
        this.loopState = loopState;
        this.events = events;
        this.sink = new PooledSink(pool);
    }

    /** What the handshake decided. */
    public enum Verdict {
        /** Every rank kept the snapshot: it is the committed one now (also: there was no snapshot to decide). */
        COMMITTED,
        /** Some rank could not keep it, nobody failed: the previous snapshot stays committed and the loop goes on. */
        SKIPPED,
        /** A rank failed: every survivor recovers now (the handshake is done). */
        FAILED
    }

    /** A snapshot captured and being written by the background writer, its handshake not made yet. */
    private record Pending(long iteration, long startNanos, Duration capture, long bytes, Future<Long> proposal) {
    }

    /** How many snapshots committed so far. */
    public long commits() {
        return commits;
    }

    /** Whether a snapshot is captured whose handshake is not made yet. */
    public boolean inFlight() {
        return pending != null;
    }

    /** The iteration of the committed snapshot, or -1. */
    public long committed() {
        return committed;
    }

    /**
     * Makes the handshake of the snapshot in flight, then — unless a rank failed — captures this rank's snapshot
     * of {@code iteration} and starts writing it through the levels in the background. Collective.
     *
     * @return the verdict of the handshake made here ({@link Verdict#COMMITTED} when none was in flight); on
     *     {@link Verdict#FAILED} nothing was captured
     */
    public <B extends Block> Verdict take(Domain<B> domain, long iteration) {
        Verdict before = settle(domain);
        if (before == Verdict.FAILED) {
            return before;
        }
        long start = System.nanoTime();
        List<Captured> captured = capture(domain, iteration);
        Duration blocking = Duration.ofNanos(System.nanoTime() - start);
        long bytes = captured.stream().mapToLong(c -> c.bytes().remaining()).sum();
        events.publish(new RuntimeEvent.Snapshotted(RuntimeEvent.StateKind.BLOCKS, iteration, blocking, bytes));
        int owner = domain.worldRank();
        pending = new Pending(iteration, start, blocking, bytes, writer.submit(() -> write(owner, iteration, captured)));
        return before;
    }

    /** On the background writer: checksums, then every level. The proposal this rank makes in the handshake. */
    private long write(int owner, long iteration, List<Captured> captured) {
        try {
            List<BlockImage> images = new ArrayList<>(captured.size());
            for (Captured c : captured) {
                images.add(BlockImage.of(c.id(), c.bytes()));
            }
            chain.write(new Snapshot(owner, iteration, images));
            return KEPT;
        } catch (ProcessFailedException e) {
            return FAILED;
        } catch (IOException | IronloopException e) {
            LOG.warn("world rank {}: the snapshot of iteration {} could not be kept ({}); the previous snapshot stays committed",
                    owner, iteration, e.getMessage());
            return NOT_KEPT;
        }
    }

    /**
     * The handshake of the snapshot in flight, if any: waits for its levels, then agrees with every rank whether
     * all kept it, and commits it (the blocks {@code swap()}) or forgets it. Collective: every rank settles at
     * the same point of the loop.
     */
    public <B extends Block> Verdict settle(Domain<B> domain) {
        if (pending == null) {
            return Verdict.COMMITTED;
        }
        Pending p = pending;
        pending = null;
        long waitStart = System.nanoTime();
        long verdict = domain.group().agree(await(p));
        Duration waited = Duration.ofNanos(System.nanoTime() - waitStart);
        events.publish(new RuntimeEvent.Handshake(p.iteration(), verdict == KEPT, waited));
        if (verdict == KEPT) {
            chain.commit(p.iteration());
            committed = p.iteration();
            commits++;
            for (B b : domain.blocks().values()) {
                b.swap();
            }
            loopState.swap();
            events.publish(new RuntimeEvent.Saved(RuntimeEvent.StateKind.BLOCKS, p.iteration(), RuntimeEvent.Saved.MEMORY,
                    Duration.ofNanos(System.nanoTime() - p.startNanos()), p.capture().plus(waited), p.bytes()));
            return Verdict.COMMITTED;
        }
        chain.abort(p.iteration());
        return verdict == NOT_KEPT ? Verdict.SKIPPED : Verdict.FAILED;
    }

    /**
     * A rank that met a failure outside a handshake: waits for the snapshot in flight (a copy from a lost rank
     * fails it), forgets it, and joins the handshake the others may be in with "failed".
     */
    public void abandon(ProcessGroup group) {
        if (pending != null) {
            Pending p = pending;
            pending = null;
            await(p);
            chain.abort(p.iteration());
        }
        joinAfterFailure(group);
    }

    /** The background writer's proposal for {@code p}; waits for it. */
    private static long await(Pending p) {
        try {
            return p.proposal().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FAILED;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r; // a defect in a level, not a failure of a rank: the loop ends with it
            }
            throw new IronloopException("the snapshot of iteration " + p.iteration() + " failed: " + c, c);
        }
    }

    /**
     * The handshake after a collective outside the loop (a result's digest or sum): whether every survivor
     * completed it. A rank that met a failure proposes "failed"; every survivor gets the same answer.
     */
    public static boolean confirm(ProcessGroup group, boolean completed) {
        return group.agree(completed ? KEPT : FAILED) == KEPT;
    }

    private static void joinAfterFailure(ProcessGroup group) {
        group.agree(FAILED);
    }

    /** One image's bytes, before its checksum. */
    private record Captured(long id, ByteBuffer bytes) {
    }

    /** The loop's thread's part: a copy of every block's state, each into a buffer sized by its last image. */
    private <B extends Block> List<Captured> capture(Domain<B> domain, long iteration) {
        List<Captured> images = new ArrayList<>(domain.blocks().size() + 1);
        images.add(new Captured(Snapshot.LOOP_STATE, ByteBuffer.wrap(loopState.save(iteration, loopSink))));
        for (B b : domain.blocks().values()) {
            long id = b.id();
            sink.begin(lastLength.getOrDefault(id, 0));
            b.save(sink);
            ByteBuffer bytes = sink.finish();
            lastLength.put(id, bytes.remaining());
            images.add(new Captured(id, bytes));
        }
        return images;
    }

    /** Waits for the snapshot in flight and stops the background writer. */
    @Override
    public void close() {
        if (pending != null) {
            try {
                pending.proposal().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                LOG.debug("the snapshot in flight at close failed: {}", e.getCause().toString());
            }
            pending = null;
        }
        writer.shutdownNow();
    }

    /** The loop's own state besides the blocks: its iteration and the application's registered globals. */
    public static final class LoopState {
        private final List<Snapshotable> globals;

        public LoopState(List<Snapshotable> globals) {
            this.globals = List.copyOf(globals);
        }

        byte[] save(long iteration, ByteArraySink sink) {
            sink.putLong(iteration);
            sink.putInt(globals.size());
            ByteArraySink inner = new ByteArraySink();
            for (Snapshotable g : globals) {
                g.save(inner);
                byte[] b = inner.take();
                sink.putInt(b.length);
                sink.putBytes(java.nio.ByteBuffer.wrap(b));
            }
            return sink.take();
        }

        /** Restores the globals from a loop-state image; returns its iteration. */
        public long restore(BlockImage image) {
            ByteArraySource in = new ByteArraySource("the loop state of a snapshot", image.bytes());
            long iteration = in.getLong();
            int n = in.getInt();
            if (n != globals.size()) {
                throw new IncompatibleRestartException("the snapshot of iteration " + iteration + " holds " + n + " loop globals but this loop "
                        + "registers " + globals.size() + ": it was written by another version of the application or of Ironloop (a loop "
                        + "skeleton's snapshots from before its part boxes became a loop global, for one); restore it with the version "
                        + "that wrote it, or start over (FRESH: true, or ironloop run --fresh)");
            }
            for (Snapshotable g : globals) {
                byte[] b = new byte[in.getInt()];
                in.getBytes(java.nio.ByteBuffer.wrap(b));
                g.restore(new ByteArraySource("a loop global", b));
            }
            return iteration;
        }

        void swap() {
            globals.forEach(Snapshotable::swap);
        }
    }
}
