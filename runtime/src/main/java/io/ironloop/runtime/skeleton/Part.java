package io.ironloop.runtime.skeleton;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.IncompatibleRestartException;
import io.ironloop.runtime.blocks.HaloBlock;

/**
 * One part of a skeleton's domain as a block of the underlying {@link io.ironloop.runtime.blocks.BlockLoop}: its
 * two domains (read and write), its checkpoint image and its end of the routing plan. Direction {@code d} of the
 * block layout is the part {@code (id + d) mod parts} ({@link PartLayout}).
 *
 * <p>Checkpoint image (the skeleton's checkpoint contents): {@code int version, int parts}, the domain's box, {@code
 * int input}, the read domain's box and elements, and — when the input domain is registered — the write domain's
 * box and elements. A box is {@code int dims} then per dimension {@code int lo, int hi}.
 */
final class Part<D extends DoubleDomain> implements HaloBlock {
    private static final int VERSION = 1;

    private final int id;
    private final Skeleton<D>.Shared shared;
    private D read;
    private D write;

    @SuppressWarnings("unchecked")
    Part(int id, Skeleton<D>.Shared shared) {
        this.id = id;
        this.shared = shared;
        Box first = shared.partition.needed(id, shared.parts, shared.firstStep());
        this.read = (D) DoubleDomain.of(first, shared.order);
        this.write = (D) DoubleDomain.of(first, shared.order);
        long start = System.nanoTime();
        shared.kernel.init(id, read, write);
        shared.initEnd = System.nanoTime();
        shared.initNanos += shared.initEnd - start;
    }

    @Override
    public int id() {
        return id;
    }

    D read() {
        return read;
    }

    /**
     * Computes {@code step}. Border exchange: the write domain covers what the part possesses now and needs at {@code
     * next}; circulation: what it possesses now (what it needs next arrives in the read domain).
     */
    void calculate(long step, long next) {
        Box possessed = shared.partition.possessed(id, shared.parts, step);
        write.resize(circulating() ? possessed : possessed.hull(shared.partition.needed(id, shared.parts, next)));
        shared.kernel.calculate(read, write, possessed, step);
    }

    private boolean circulating() {
        return shared.communication == RoutingPlan.Kind.CIRCULATION;
    }

    /** Before the plan runs: with circulation, the read domain becomes the receiving one and gets what this part keeps. */
    void prepareToReceive(long next) {
        if (circulating()) {
            read.resize(shared.partition.needed(id, shared.parts, next));
            Box kept = shared.plan.region(id, id);
            if (kept != null) {
                double[] buffer = new double[(int) kept.size()];
                write.copyOut(kept, buffer, 0);
                read.copyIn(kept, buffer, 0);
            }
        }
    }

    /** After the step: the computed domain becomes the read one (border exchange, or no communication at all). */
    void swapDomains(boolean communicated) {
        if (!(communicated && circulating())) {
            D t = read;
            read = write;
            write = t;
        }
    }

    @Override
    public double[] haloFor(int direction) {
        int to = (id + direction) % shared.parts;
        Box r = to == id ? null : shared.plan.region(id, to);
        if (r == null) {
            return null;
        }
        double[] out = new double[(int) r.size()];
        write.copyOut(r, out, 0);
        return out;
    }

    @Override
    public void acceptHalo(int direction, double[] data) {
        int from = (id + direction) % shared.parts;
        Box r = shared.plan.region(from, id);
        if (r == null || r.size() != data.length) {
            throw new IllegalStateException("part " + id + " got " + data.length + " elements from part " + from + " where the routing "
                    + "plan moves " + r);
        }
        (circulating() ? read : write).copyIn(r, data, 0);
    }

    @Override
    public void save(StateSink sink) {
        sink.putInt(VERSION);
        sink.putInt(shared.parts);
        putBox(sink, shared.domain);
        boolean input = shared.checkpointInput;
        sink.putInt(input ? 1 : 0);
        putBox(sink, read.box());
        sink.putDoubles(read.data());
        if (input) {
            putBox(sink, write.box());
            sink.putDoubles(write.data());
        }
    }

    @Override
    public void restore(StateSource source) {
        int version = source.getInt();
        int parts = source.getInt();
        Box domain = getBox(source);
        if (version != VERSION || parts != shared.parts || !domain.equals(shared.domain)) {
            throw new IncompatibleRestartException("part " + id + "'s checkpoint (version " + version + ") is of a domain " + domain
                    + " in " + parts + " parts, this skeleton's is " + shared.domain + " in " + shared.parts + " parts: restart with the "
                    + "same domain and number of parts (the number of processes may differ), or start fresh");
        }
        boolean input = source.getInt() == 1;
        read.resize(getBox(source));
        source.getDoubles(read.data());
        if (input) {
            write.resize(getBox(source));
            source.getDoubles(write.data());
        }
    }

    private static void putBox(StateSink sink, Box b) {
        sink.putInt(b.dims());
        for (int d = 0; d < b.dims(); d++) {
            sink.putInt(b.lo(d));
            sink.putInt(b.hi(d));
        }
    }

    private static Box getBox(StateSource source) {
        int dims = source.getInt();
        if (dims < 1 || dims > 64) {
            throw new IllegalStateException("a part's checkpoint holds a box of " + dims + " dimensions");
        }
        int[] lo = new int[dims];
        int[] hi = new int[dims];
        for (int d = 0; d < dims; d++) {
            lo[d] = source.getInt();
            hi[d] = source.getInt();
        }
        return Box.of(lo, hi);
    }
}
