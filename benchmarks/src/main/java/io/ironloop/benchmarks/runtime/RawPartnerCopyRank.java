package io.ironloop.benchmarks.runtime;

import io.ironloop.BufferPool;
import io.ironloop.benchmarks.group.RawTcp;
import io.ironloop.examples.blocks.BlockExample;
import io.ironloop.examples.blocks.BlockRankMain;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.StepContext;
import io.ironloop.runtime.internal.state.PooledSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The reference variant of {@code ironloop bench overhead --app heat}: one rank of the heat example running with no
 * Ironloop snapshot (the parameters of the run without) but with the least an in-memory partner copy at every iteration
 * can cost. After each step every block's state is written ({@code Block.save}) into one pooled direct buffer (the capture's {@code PooledSink}) and sent over a
 * raw loopback socket to the partner rank, (r + P/2) mod P as the partner level's pairwise rule places it, which reads
 * its source's bytes into a direct buffer of its own; both transfers run beside the next step and are awaited at its
 * end, as the partner level's handshake waits one iteration later. No checksum, no framing beyond a length, no
 * agreement, no own-memory copy: a copy into a buffer and the kernel's copies. Its overhead over the run without is
 * what any partner copy of this state at every iteration costs on the machine. Arguments as {@code HeatBlocksRank}.
 */
public final class RawPartnerCopyRank {
    private RawPartnerCopyRank() {
    }

    /**
     * Entry point of one rank.
     *
     * @param args as {@code HeatBlocksRank}'s: {@code [test|demo|bench] [--steps N] [--cells N]}
     */
    public static void main(String[] args) {
        BlockRankMain.main("RawPartnerCopyRank", args, options -> new CopyingEveryStep<>(HeatBlocks.of(options)));
    }

    /** An example whose every step is followed by the raw partner copy of the rank's blocks. */
    static final class CopyingEveryStep<B extends Block> implements BlockExample<B> {
        private final BlockExample<B> example;
        private final ExecutorService transfers = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "raw-partner-copy");
            t.setDaemon(true);
            return t;
        });
        /** The capture's own sink: each image one copy into a pooled direct buffer, reused from the step before. */
        private final BufferPool pool = new BufferPool(Long.MAX_VALUE);
        private final PooledSink sink = new PooledSink(pool);
        private ByteBuffer sent;
        private ByteBuffer received = ByteBuffer.allocateDirect(0);
        private SocketChannel toPartner;
        private SocketChannel fromSource;
        private int groupSize;
        private Future<?> sending;
        private Future<?> receiving;

        CopyingEveryStep(BlockExample<B> example) {
            this.example = example;
        }

        @Override
        public void step(StepContext<B> context) {
            example.step(context);
            ProcessGroup g = context.group();
            if (g.size() < 2) {
                return; // no partner
            }
            connectOnce(g);
            awaitTransfers(); // the previous step's copy, which the step just computed ran beside
            int expected = sent == null ? 0 : sent.capacity();
            pool.give(sent); // its transfer is done: the next image reuses it
            sink.begin(expected);
            context.blocks().forEach(b -> b.save(sink));
            ByteBuffer state = sink.finish().slice(); // exactly the bytes written: RawTcp writes whole buffers
            sent = state;
            sending = transfers.submit(() -> {
                RawTcp.write(toPartner, new ByteBuffer[] {ByteBuffer.allocate(Long.BYTES).putLong(0, state.remaining()), state});
                return null;
            });
            receiving = transfers.submit(() -> {
                ByteBuffer length = ByteBuffer.allocate(Long.BYTES);
                RawTcp.read(fromSource, new ByteBuffer[] {length});
                int bytes = Math.toIntExact(length.getLong(0));
                if (received.capacity() < bytes) {
                    received = ByteBuffer.allocateDirect(bytes);
                }
                RawTcp.read(fromSource, new ByteBuffer[] {received.clear().limit(bytes).slice()});
                return null;
            });
            if (context.iteration() == example.steps() - 1) {
                awaitTransfers(); // the run's last copy, as both variants commit a snapshot at the last iteration
            }
        }

        private void connectOnce(ProcessGroup g) {
            if (toPartner != null) {
                if (g.size() != groupSize) {
                    throw new IllegalStateException("the raw partner copy reference does not survive the loss of a rank");
                }
                return;
            }
            groupSize = g.size();
            int partner = (g.rank() + groupSize / 2) % groupSize;
            int source = Math.floorMod(g.rank() - groupSize / 2, groupSize);
            try {
                Map<Integer, SocketChannel>[] channels = RawTcp.connect(g, new int[] {partner}, new int[] {source});
                toPartner = channels[0].get(partner);
                fromSource = channels[1].get(source);
            } catch (IOException e) {
                throw new UncheckedIOException("raw partner copy: cannot connect to the partner ranks", e);
            }
        }

        private void awaitTransfers() {
            try {
                for (Future<?> f : new Future<?>[] {sending, receiving}) {
                    if (f != null) {
                        f.get();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while awaiting the raw partner copy", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("raw partner copy failed: " + e.getCause(), e.getCause());
            }
        }

        @Override
        public String name() {
            return example.name();
        }

        @Override
        public String describe() {
            return example.describe() + ", raw partner copy every step";
        }

        @Override
        public BlockLayout layout() {
            return example.layout();
        }

        @Override
        public B create(int id) {
            return example.create(id);
        }

        @Override
        public long steps() {
            return example.steps();
        }

        @Override
        public Map<String, String> settings() {
            return example.settings();
        }

        @Override
        public String summary(Sums<B> sums) {
            return example.summary(sums);
        }

        @Override
        public boolean digestsRows() {
            return example.digestsRows();
        }

        @Override
        public Map<Integer, double[]> resultRows(B block) {
            return example.resultRows(block);
        }
    }
}
