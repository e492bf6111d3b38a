package io.ironloop.runtime.internal.blocks;

import io.ironloop.IronloopException;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.level.BlockImage;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.Snapshot;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.internal.state.ByteArraySource;
import io.ironloop.runtime.internal.state.ByteArraySink;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint path of a block loop (waLBerla's Algorithm 2, CreateResilientCheckpoint): every block and
 * the loop's own state write a snapshot into the writable buffers of every level (own memory, partner
 * copies, disk every so often), then one fault-tolerant agreement — the handshake — says whether every
 * rank finished creating and sending it. Only then do the levels commit and the blocks {@code swap()}; a
 * failure before leaves the previous snapshot committed everywhere.
 *
 * <p>The handshake is the one agreement every survivor makes per snapshot or failure: a rank that meets a
 * failure anywhere else joins it with "failed" ({@link #joinAfterFailure}), so every survivor leaves it with
 * the same verdict and goes to recovery at the same point.
 */
public final class BlockSnapshots {
    private static final Logger LOG = LoggerFactory.getLogger(BlockSnapshots.class);
    /** Handshake proposals; the agreement returns the lowest. */
    private static final long FAILED = 0;
    private static final long NOT_KEPT = 1;
    private static final long KEPT = 2;

    private final LevelChain chain;
    private final LoopState loopState;
    private final RuntimeEvents events;
    private final ByteArraySink sink = new ByteArraySink();
    private long committed = -1;

    public BlockSnapshots(LevelChain chain, LoopState loopState, RuntimeEvents events) {
        this.chain = chain;
        this.loopState = loopState;
        this.events = events;
    }

    /** What the handshake decided. */
    public enum Verdict {
        /** Every rank kept the snapshot: it is the committed one now. */
        COMMITTED,
        /** Some rank could not keep it, nobody failed: the previous snapshot stays committed and the loop goes on. */
        SKIPPED,
        /** A rank failed: every survivor recovers now (the handshake is done). */
        FAILED
    }

    /** The iteration of the committed snapshot, or -1. */
    public long committed() {
        return committed;
    }

    /** Creates this rank's snapshot of {@code iteration}, writes it through the levels and runs the handshake. */
    public <B extends Block> Verdict take(Domain<B> domain, long iteration) {
        long start = System.nanoTime();
        Snapshot s = capture(domain, iteration);
        Duration blocking = Duration.ofNanos(System.nanoTime() - start);
        events.publish(new RuntimeEvent.Snapshotted(RuntimeEvent.StateKind.BLOCKS, iteration, blocking, s.bytes()));
        long proposal = KEPT;
        try {
            chain.write(s);
        } catch (ProcessFailedException e) {
            proposal = FAILED;
        } catch (IOException | IronloopException e) {
            LOG.warn("rank {}: the snapshot of iteration {} could not be kept ({}); the previous snapshot stays committed",
                    domain.worldRank(), iteration, e.getMessage());
            proposal = NOT_KEPT;
        }
        long verdict = domain.group().agree(proposal);
        if (verdict == KEPT) {
            chain.commit(iteration);
            committed = iteration;
            for (B b : domain.blocks().values()) {
                b.swap();
            }
            loopState.swap();
            events.publish(new RuntimeEvent.Saved(RuntimeEvent.StateKind.BLOCKS, iteration, RuntimeEvent.Saved.MEMORY,
                    Duration.ofNanos(System.nanoTime() - start)));
            return Verdict.COMMITTED;
        }
        chain.abort(iteration);
        return verdict == NOT_KEPT ? Verdict.SKIPPED : Verdict.FAILED;
    }

    /**
     * The handshake after a collective outside the loop (a result's digest or sum): whether every survivor
     * completed it. A rank that met a failure proposes "failed"; every survivor gets the same answer.
     */
    public static boolean confirm(io.ironloop.group.ProcessGroup group, boolean completed) {
        return group.agree(completed ? KEPT : FAILED) == KEPT;
    }

    /** A rank that met a failure outside a snapshot joins the handshake the others may be in, with "failed". */
    public static void joinAfterFailure(io.ironloop.group.ProcessGroup group) {
        group.agree(FAILED);
    }

    private <B extends Block> Snapshot capture(Domain<B> domain, long iteration) {
        List<BlockImage> images = new ArrayList<>(domain.blocks().size() + 1);
        images.add(BlockImage.of(Snapshot.LOOP_STATE, loopState.save(iteration, sink)));
        for (B b : domain.blocks().values()) {
            b.save(sink);
            images.add(BlockImage.of(b.id(), sink.take()));
        }
        return new Snapshot(domain.worldRank(), iteration, images);
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
            ByteArraySource in = new ByteArraySource("the loop state of iteration's snapshot", image.bytes());
            long iteration = in.getLong();
            int n = in.getInt();
            if (n != globals.size()) {
                throw new IllegalStateException("the snapshot holds " + n + " loop globals, the loop registers " + globals.size());
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
