package io.ironloop.runtime.skeleton;

/**
 * How a domain is split into parts, per step (FTG's partition functions {@code ftgu_data_possessed_def} and
 * {@code ftgu_data_needed_def}). The possessed boxes of one step must cover the whole domain without overlap;
 * a part's needed box holds its possessed box and its shadow region (the neighbours' data its calculation
 * reads). Both may change from step to step (the Swing pattern). Functions of their arguments only: every rank
 * evaluates them, for every part, and must get the same boxes.
 */
public interface Partition {
    /** The data part {@code part} of {@code parts} computes at {@code step}, in global coordinates. */
    Box possessed(int part, int parts, long step);

    /** The data part {@code part} reads at {@code step}: its possessed box and its shadow region. */
    Box needed(int part, int parts, long step);

    /**
     * Slabs along {@code axis}: part {@code p} possesses the indices {@code [lo + p·n/parts, lo + (p+1)·n/parts)} of
     * that axis (the whole extent of the others) and needs {@code shadow} more on each side, clipped to the domain.
     * Fixed over steps.
     */
    static Partition slabs(Box domain, int axis, int shadow) {
        if (axis < 0 || axis >= domain.dims() || shadow < 0) {
            throw new IllegalArgumentException("slabs need an axis in [0, " + domain.dims() + ") and a shadow >= 0, not axis " + axis
                    + " and shadow " + shadow);
        }
        return new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                int[] lo = new int[domain.dims()];
                int[] hi = new int[domain.dims()];
                for (int d = 0; d < domain.dims(); d++) {
                    lo[d] = domain.lo(d);
                    hi[d] = domain.hi(d);
                }
                long n = domain.extent(axis);
                lo[axis] = domain.lo(axis) + (int) (part * n / parts);
                hi[axis] = domain.lo(axis) + (int) ((part + 1) * n / parts);
                return Box.of(lo, hi);
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step).grow(axis, shadow, domain);
            }
        };
    }
}
