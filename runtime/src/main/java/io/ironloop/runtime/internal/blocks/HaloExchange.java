package io.ironloop.runtime.internal.blocks;

import io.ironloop.core.level.PartnerLevel;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.HaloBlock;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Routes halos between neighbouring blocks: every block's outgoing halos are collected first, then those
 * for blocks on this rank are delivered directly and the others travel in one message per neighbouring
 * rank ({@code int count}, then per halo {@code int block, int direction, int length, double[length]}).
 * The layout must be symmetric (if b sees n in direction d, n sees b in the opposite direction), so each
 * side knows whom to expect a message from.
 */
public final class HaloExchange {
    /** The tag of halo messages. */
    public static final int TAG = PartnerLevel.TAG_BASE - 0x0100_0000;

    private HaloExchange() {
    }

    private record Halo(int block, int direction, double[] data) {
    }

    /** {@link #exchange(Domain, int)} with every neighbouring rank at once. */
    public static <B extends Block> void exchange(Domain<B> domain) {
        exchange(domain, Integer.MAX_VALUE);
    }

    /**
     * Exchanges the halos of {@code domain}'s blocks, with at most {@code peersAtATime} ranks at a time (the paced mode):
     * this rank sends its messages to the next {@code peersAtATime} neighbouring ranks in ascending rank order and takes
     * theirs before it sends further, so at most that many of its messages are open and encoded at once. Every rank
     * goes through its pairs in the same global order (ascending by lower, then higher rank), so whatever value each
     * rank passes, the lowest pair not yet exchanged always has both sides ready, and nothing deadlocks; the halos and
     * so the results are the same as unpaced.
     */
    public static <B extends Block> void exchange(Domain<B> domain, int peersAtATime) {
        if (peersAtATime < 1) {
            throw new IllegalArgumentException("halos are exchanged with at least one rank at a time, not " + peersAtATime);
        }
        BlockLayout layout = domain.layout();
        int me = domain.group().rank();
        List<Halo> local = new ArrayList<>();
        Map<Integer, List<Halo>> out = new TreeMap<>();
        TreeSet<Integer> peers = new TreeSet<>();
        for (B b : domain.blocks().values()) {
            if (!(b instanceof HaloBlock h)) {
                throw new IllegalStateException("block " + b.id() + " (" + b.getClass().getName() + ") does not implement HaloBlock");
            }
            for (int d = 0; d < layout.directions(); d++) {
                int n = layout.neighbour(b.id(), d);
                if (n < 0) {
                    continue;
                }
                int owner = domain.ownerRank(n);
                if (owner != me) {
                    peers.add(owner);
                }
                double[] data = h.haloFor(d);
                if (data == null) {
                    continue;
                }
                Halo halo = new Halo(n, layout.opposite(d), data);
                if (owner == me) {
                    local.add(halo);
                } else {
                    out.computeIfAbsent(owner, k -> new ArrayList<>()).add(halo);
                }
            }
        }
        List<Integer> order = new ArrayList<>(peers); // ascending: the same order of pairs on every rank
        for (int first = 0; first < Math.max(1, order.size()); first += peersAtATime) {
            List<Integer> window = order.subList(Math.min(first, order.size()), (int) Math.min(order.size(), (long) first + peersAtATime));
            for (int peer : window) {
                domain.group().send(peer, TAG, encode(out.getOrDefault(peer, List.of())));
            }
            if (first == 0) {
                for (Halo h : local) { // while the first messages travel
                    deliver(domain, h);
                }
            }
            for (int peer : window) {
                for (Halo h : decode(domain.group().receive(peer, TAG), peer)) {
                    if (domain.ownerRank(h.block()) != me) {
                        throw new IllegalStateException("rank " + peer + " sent a halo for block " + h.block() + ", which rank " + me
                                + " does not own");
                    }
                    deliver(domain, h);
                }
            }
        }
    }

    private static <B extends Block> void deliver(Domain<B> domain, Halo h) {
        ((HaloBlock) domain.blocks().get(h.block())).acceptHalo(h.direction(), h.data());
    }

    private static byte[] encode(List<Halo> halos) {
        long bytes = Integer.BYTES;
        for (Halo h : halos) {
            bytes += 3L * Integer.BYTES + 8L * h.data().length;
        }
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(halos.size());
        for (Halo h : halos) {
            b.putInt(h.block()).putInt(h.direction()).putInt(h.data().length);
            b.asDoubleBuffer().put(h.data());
            b.position(b.position() + 8 * h.data().length);
        }
        return b.array();
    }

    private static List<Halo> decode(byte[] bytes, int from) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int count = b.getInt();
        List<Halo> halos = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int block = b.getInt();
            int direction = b.getInt();
            int length = b.getInt();
            if (length < 0 || 8L * length > b.remaining()) {
                throw new IllegalStateException("a halo message from rank " + from + " is malformed (length " + length + ")");
            }
            double[] data = new double[length];
            b.asDoubleBuffer().get(data);
            b.position(b.position() + 8 * length);
            halos.add(new Halo(block, direction, data));
        }
        return halos;
    }
}
