package io.ironloop.runtime.skeleton;

import io.ironloop.core.Snapshotable;
import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.runtime.IncompatibleRestartException;

/**
 * The boxes of every part's two domains, the same on every rank: the one place that says how the domains change over
 * a step (the parts resize their domains to these boxes), and, as a global of the block loop, the self-description
 * of a checkpoint. Keeping it here, and not in front of each part's elements, leaves a part's image nothing but
 * elements, so that the disk level elides the chunks of a part whose values are all zero, as it does for a plain
 * array: a header in front of the elements made every chunk of a cold part non-zero and doubled the heat example's
 * disk lines.
 *
 * <p>Checkpoint image: {@code int version, int parts}, the domain's box, {@code int input}, then per part in id order its
 * read domain's box and — when the input domain is registered — its write domain's box. A box is {@code int dims}
 * then per dimension {@code int lo, int hi}. The loop restores it before the parts ({@link
 * io.ironloop.runtime.recovery.OnlineRecovery}), so that each part knows its boxes when its elements arrive.
 *
 * <p>One thread: the skeleton's.
 */
final class PartBoxes implements Snapshotable {
    private static final int VERSION = 2;

    private final Skeleton<?>.Shared shared;
    private final Box[] read;
    private final Box[] write;
    /** Whether the checkpoint restored last holds the parts' input domains. */
    private boolean restoredInput;

    PartBoxes(Skeleton<?>.Shared shared) {
        this.shared = shared;
        this.read = new Box[shared.parts];
        this.write = new Box[shared.parts];
        reset();
    }

    /** Every part's boxes as at the first step: both domains cover what the part needs then. */
    void reset() {
        for (int p = 0; p < shared.parts; p++) {
            read[p] = shared.partition.needed(p, shared.parts, shared.firstStep());
            write[p] = read[p];
        }
    }

    /** Part {@code id}'s read domain's box. */
    Box read(int id) {
        return read[id];
    }

    /** Part {@code id}'s write domain's box. */
    Box write(int id) {
        return write[id];
    }

    /**
     * Before the calculation of {@code plan}'s step: each write domain covers what its part possesses now and — with
     * border exchange — needs at the next step; with circulation, what it possesses (what it needs next arrives in the
     * read domain).
     */
    void calculate(RoutingPlan plan) {
        for (int p = 0; p < shared.parts; p++) {
            write[p] = circulating() ? plan.possessed(p) : plan.possessed(p).hull(plan.needed(p));
        }
    }

    /** Before a circulation plan runs: each read domain becomes the receiving one, covering what its part needs next. */
    void receive(RoutingPlan plan) {
        if (circulating()) {
            for (int p = 0; p < shared.parts; p++) {
                read[p] = plan.needed(p);
            }
        }
    }

    /** After the step: the computed domains become the read ones, unless a circulation plan ran (it filled the read ones). */
    void swap(boolean communicated) {
        if (!(communicated && circulating())) {
            Box[] t = read.clone();
            System.arraycopy(write, 0, read, 0, read.length);
            System.arraycopy(t, 0, write, 0, write.length);
        }
    }

    private boolean circulating() {
        return shared.communication == RoutingPlan.Kind.CIRCULATION;
    }

    /** Whether the checkpoint restored last holds the input domains (the write domains' elements follow the read ones'). */
    boolean restoredInput() {
        return restoredInput;
    }

    @Override
    public void save(StateSink sink) {
        sink.putInt(VERSION);
        sink.putInt(shared.parts);
        putBox(sink, shared.domain);
        boolean input = shared.checkpointInput;
        sink.putInt(input ? 1 : 0);
        for (int p = 0; p < shared.parts; p++) {
            putBox(sink, read[p]);
            if (input) {
                putBox(sink, write[p]);
            }
        }
    }

    @Override
    public void restore(StateSource source) {
        int version = source.getInt();
        int parts = version == VERSION ? source.getInt() : -1;
        Box domain = version == VERSION ? getBox(source) : null;
        if (version != VERSION || parts != shared.parts || !domain.equals(shared.domain)) {
            throw new IncompatibleRestartException("the checkpoint (skeleton image version " + version + ") is of a domain " + domain
                    + " in " + parts + " parts, this skeleton's is " + shared.domain + " in " + shared.parts + " parts (version "
                    + VERSION + "): restart with the same domain and number of parts (the number of processes may differ), or start fresh");
        }
        restoredInput = source.getInt() == 1;
        for (int p = 0; p < parts; p++) {
            read[p] = getBox(source);
            write[p] = restoredInput ? getBox(source) : read[p];
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
            throw new IllegalStateException("a skeleton's checkpoint holds a box of " + dims + " dimensions");
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
