package io.ironloop.core.level;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/** Ranks in one JVM, connected by queues keyed by world rank; {@code wire} may damage frames in flight. */
final class Wires {
    final Map<String, BlockingQueue<byte[]>> queues = new ConcurrentHashMap<>();
    final int size;
    final UnaryOperator<byte[]> wire;
    final AtomicInteger recycled = new AtomicInteger();

    Wires(int size, UnaryOperator<byte[]> wire) {
        this.size = size;
        this.wire = wire;
    }

    BlockingQueue<byte[]> q(int from, int to, int tag) {
        return queues.computeIfAbsent(from + ">" + to + "#" + tag, k -> new LinkedBlockingQueue<>());
    }

    /** The link of world rank {@code rank} in the whole world. */
    PeerLink link(int rank) {
        int[] world = new int[size];
        for (int r = 0; r < size; r++) {
            world[r] = r;
        }
        return link(rank, world);
    }

    /** The link of rank {@code rank} of a group made of world ranks {@code world} (a shrunk group). */
    PeerLink link(int rank, int[] world) {
        return new PeerLink() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return world.length;
            }

            @Override
            public int worldRank(int r) {
                return world[r];
            }

            @Override
            public String host(int r) {
                return "";
            }

            @Override
            public void send(int dest, int tag, ByteBuffer data) {
                byte[] copy = new byte[data.remaining()];
                data.duplicate().get(copy);
                q(world[rank], world[dest], tag).add(wire.apply(copy));
            }

            @Override
            public ByteBuffer receive(int source, int tag) {
                try {
                    byte[] b = q(world[source], world[rank], tag).poll(10, TimeUnit.SECONDS);
                    if (b == null) {
                        throw new IllegalStateException("nothing from world rank " + world[source] + " with tag " + tag + " in 10 s");
                    }
                    return ByteBuffer.wrap(b);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void recycle(ByteBuffer buffer) {
                recycled.incrementAndGet();
            }
        };
    }
}
