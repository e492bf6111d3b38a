package io.ironloop.runtime.skeleton;

import java.util.Arrays;
import java.util.Objects;

/**
 * An N-dimensional array of doubles over a {@link Box} of global coordinates (FTG's {@code ftg_Domain}),
 * stored densely in one {@code double[]} in a {@link StorageOrder}. Elements are reached by global coordinates
 * ({@link #get(int...)}: an offset computation away) or local ones ({@link #getLocal(int...)}: relative to the
 * box's lower corner); {@link #data()} gives the array itself for kernels that index it directly. The 1-, 2- and
 * 3-D subclasses ({@link Domain1D}, {@link Domain2D}, {@link Domain3D}) add accessors without varargs and without
 * a virtual call; {@link #of} picks the one for the box.
 *
 * <p>Not thread-safe. {@link #resize} replaces the array (its content is then zero).
 */
public class DoubleDomain {
    private final StorageOrder order;
    private Box box;
    private int[] lo;
    private long[] strides;
    private double[] data;

    DoubleDomain(Box box, StorageOrder order) {
        this.order = Objects.requireNonNull(order, "order");
        allocate(box);
    }

    /**
     * A zero-filled domain over {@code box}: a {@link Domain1D}, {@link Domain2D} or {@link Domain3D} for one to
     * three dimensions, a plain {@code DoubleDomain} for more.
     *
     * @throws IllegalArgumentException if the box holds more than {@code 2^31 - 1} elements
     */
    public static DoubleDomain of(Box box, StorageOrder order) {
        return switch (box.dims()) {
            case 1 -> new Domain1D(box, order);
            case 2 -> new Domain2D(box, order);
            case 3 -> new Domain3D(box, order);
            default -> new DoubleDomain(box, order);
        };
    }

    private void allocate(Box b) {
        if (b.size() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a domain of " + b + " holds " + b.size() + " elements, more than one array can");
        }
        this.box = b;
        this.lo = new int[b.dims()];
        int[] extents = new int[b.dims()];
        for (int d = 0; d < b.dims(); d++) {
            lo[d] = b.lo(d);
            extents[d] = b.extent(d);
        }
        this.strides = order.strides(extents);
        this.data = new double[(int) b.size()];
        reshaped();
    }

    /** Called after the box changed, for subclasses that cache its bounds and strides. */
    void reshaped() {
    }

    /**
     * Makes this domain cover {@code newBox}: a new zero-filled array, unless the box is the same (then nothing
     * changes). FTG's {@code ftgu_resize}: subdomains that change from step to step.
     */
    public void resize(Box newBox) {
        if (newBox.dims() != box.dims()) {
            throw new IllegalArgumentException("cannot resize a " + box.dims() + "-D domain to " + newBox);
        }
        if (!newBox.equals(box)) {
            allocate(newBox);
        }
    }

    /** The box this domain covers, in global coordinates. */
    public final Box box() {
        return box;
    }

    /** The storage order. */
    public final StorageOrder order() {
        return order;
    }

    /** The array itself, in {@link #order()}; replaced by {@link #resize}. */
    public final double[] data() {
        return data;
    }

    /** The distance in the array between neighbours along dimension {@code d}. */
    public final int stride(int d) {
        return (int) strides[d];
    }

    /** The array index of the element at global coordinates {@code global}. */
    public final int index(int... global) {
        long i = 0;
        for (int d = 0; d < lo.length; d++) {
            int c = global[d] - lo[d];
            if (c < 0 || c >= box.extent(d)) {
                throw new IndexOutOfBoundsException("coordinates " + Arrays.toString(global) + " are outside " + box);
            }
            i += c * strides[d];
        }
        return (int) i;
    }

    /** The element at global coordinates. */
    public final double get(int... global) {
        return data[index(global)];
    }

    /** Sets the element at global coordinates. */
    public final void set(int[] global, double value) {
        data[index(global)] = value;
    }

    /** The element at coordinates relative to the box's lower corner. */
    public final double getLocal(int... local) {
        int[] g = local.clone();
        for (int d = 0; d < g.length; d++) {
            g[d] += lo[d];
        }
        return get(g);
    }

    /**
     * Copies the elements of {@code region} (inside {@link #box()}) into {@code into} from {@code offset}, in this
     * domain's storage order; contiguous ranges go in one {@link System#arraycopy} each.
     *
     * @return the offset after the last element written
     */
    public final int copyOut(Box region, double[] into, int offset) {
        return transfer(region, into, offset, true);
    }

    /** The inverse of {@link #copyOut}: fills {@code region} from {@code from}; returns the offset after the last element read. */
    public final int copyIn(Box region, double[] from, int offset) {
        return transfer(region, from, offset, false);
    }

    private int transfer(Box region, double[] buffer, int offset, boolean out) {
        if (!box.contains(region)) {
            throw new IllegalArgumentException("region " + region + " is not inside the domain's box " + box);
        }
        if (region.isEmpty()) {
            return offset;
        }
        int n = lo.length;
        int[] dims = new int[n]; // fastest first
        for (int k = 0; k < n; k++) {
            dims[k] = order == StorageOrder.C ? n - 1 - k : k;
        }
        // merge dimensions into one run while the region spans the whole box along the faster ones
        int k = 1;
        int run = region.extent(dims[0]);
        while (k < n && region.extent(dims[k - 1]) == box.extent(dims[k - 1])) {
            run *= region.extent(dims[k]);
            k++;
        }
        int[] c = new int[n];
        for (int d = 0; d < n; d++) {
            c[d] = region.lo(d);
        }
        int pos = offset;
        while (true) {
            long i = 0;
            for (int d = 0; d < n; d++) {
                i += (c[d] - lo[d]) * strides[d];
            }
            if (out) {
                System.arraycopy(data, (int) i, buffer, pos, run);
            } else {
                System.arraycopy(buffer, pos, data, (int) i, run);
            }
            pos += run;
            int j = k;
            while (j < n) {
                int d = dims[j];
                if (++c[d] < region.hi(d)) {
                    break;
                }
                c[d] = region.lo(d);
                j++;
            }
            if (j == n) {
                return pos;
            }
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + box + " " + order;
    }
}
