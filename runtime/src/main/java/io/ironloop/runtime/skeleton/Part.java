package io.ironloop.runtime.skeleton;

import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.IncompatibleRestartException;
import io.ironloop.runtime.blocks.HaloBlock;

/**
 * One part of a skeleton's domain as a block of the underlying {@link io.ironloop.runtime.blocks.BlockLoop}: its
 * two domains (read and write), its checkpoint image and its end of the routing plan. Direction {@code d} of the
 * block layout is the part {@code (id + d) mod parts} ({@link io.ironloop.runtime.blocks.BlockLayout#allToAll}). The domains' boxes are those of {@link
 * PartBoxes}, which the part follows.
 *
 * <p>Checkpoint image (the skeleton's checkpoint contents): the read domain's elements, then — when the input domain
 * is registered — the write domain's, in storage order; their boxes are in {@link PartBoxes}, a global of the loop.
 */
final class Part<D extends DoubleDomain> implements HaloBlock {
    private final int id;
    private final Skeleton<D>.Shared shared;
    private D read;
    private D write;
    /**
     * The outgoing region of each direction, reused from step to step while its size stays (the receiver copies it
     * before the next exchange): a fresh array per message and step cost the heat example some 5 % of a step.
     */
    private final double[][] outgoing;

    /** Part {@code id} in its initial state; the boxes of every part go back to theirs (a fresh start, or a restore follows). */
    @SuppressWarnings("unchecked")
    Part(int id, Skeleton<D>.Shared shared) {
        this.id = id;
        this.shared = shared;
        this.outgoing = new double[shared.parts][];
        shared.boxes.reset();
        this.read = (D) DoubleDomain.of(shared.boxes.read(id), shared.order);
        this.write = (D) DoubleDomain.of(shared.boxes.write(id), shared.order);
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

    /** Computes {@code step} into the write domain, resized to its box ({@link PartBoxes#calculate}). */
    void calculate(long step) {
        write.resize(shared.boxes.write(id));
        shared.kernel.calculate(read, write, shared.plan.possessed(id), step);
    }

    private boolean circulating() {
        return shared.communication == RoutingPlan.Kind.CIRCULATION;
    }

    /** Before the plan runs: with circulation, the read domain becomes the receiving one and gets what this part keeps. */
    void prepareToReceive() {
        if (circulating()) {
            read.resize(shared.boxes.read(id));
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
        double[] out = outgoing[direction];
        if (out == null || out.length != r.size()) {
            out = new double[(int) r.size()];
            outgoing[direction] = out;
        }
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
        if (!read.box().equals(shared.boxes.read(id)) || !write.box().equals(shared.boxes.write(id))) {
            throw new IllegalStateException("part " + id + "'s domains are " + read.box() + " and " + write.box() + " where the skeleton's "
                    + "boxes say " + shared.boxes.read(id) + " and " + shared.boxes.write(id) + ": a defect of the skeleton");
        }
        sink.putDoubles(read.data());
        if (shared.checkpointInput) {
            sink.putDoubles(write.data());
        }
    }

    /** Restores the elements into domains of the boxes {@link PartBoxes} restored (the loop restores it first). */
    @Override
    public void restore(StateSource source) {
        read.resize(shared.boxes.read(id));
        write.resize(shared.boxes.write(id)); // without the input domain: the read domain's box, filled by the next step
        boolean input = shared.boxes.restoredInput();
        long expected = Double.BYTES * (read.box().size() + (input ? write.box().size() : 0));
        if (source.remaining() != expected) {
            throw new IncompatibleRestartException("part " + id + "'s checkpoint holds " + source.remaining() + " bytes where its boxes "
                    + read.box() + (input ? " and " + write.box() : "") + " take " + expected + ": it is not this skeleton's; start fresh");
        }
        source.getDoubles(read.data());
        if (input) {
            source.getDoubles(write.data());
        }
    }
}
