package io.ironloop.runtime.skeleton;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * A box of an N-dimensional index space, in global coordinates: per dimension the half-open range
 * {@code [lo, hi)} (FTG's {@code ftg_Domain_desc}). It describes the whole domain, a part's subdomain (the
 * data it possesses), the data it needs (the subdomain with its shadow region) and the ranges a routing plan
 * moves. Immutable; an empty box has some {@code hi <= lo}.
 */
public final class Box {
    private final int[] lo;
    private final int[] hi;

    private Box(int[] lo, int[] hi) {
        this.lo = lo;
        this.hi = hi;
    }

    /**
     * The box {@code [lo[d], hi[d])} in each dimension {@code d}.
     *
     * @throws IllegalArgumentException if the arrays are empty or differ in length
     */
    public static Box of(int[] lo, int[] hi) {
        if (lo.length == 0 || lo.length != hi.length) {
            throw new IllegalArgumentException("a box needs as many lower as upper bounds, at least one: " + Arrays.toString(lo)
                    + " and " + Arrays.toString(hi));
        }
        return new Box(lo.clone(), hi.clone());
    }

    /** The box {@code [0, extents[d])} in each dimension. */
    public static Box ofExtents(int... extents) {
        return of(new int[extents.length], extents);
    }

    /** The number of dimensions. */
    public int dims() {
        return lo.length;
    }

    /** The lower bound (inclusive) along {@code d}. */
    public int lo(int d) {
        return lo[d];
    }

    /** The upper bound (exclusive) along {@code d}. */
    public int hi(int d) {
        return hi[d];
    }

    /** The number of indices along {@code d} (0 when empty along it). */
    public int extent(int d) {
        return Math.max(0, hi[d] - lo[d]);
    }

    /** The number of elements. */
    public long size() {
        long n = 1;
        for (int d = 0; d < lo.length; d++) {
            n *= extent(d);
        }
        return n;
    }

    /** Whether the box holds no element. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** The common part of this box and {@code other} (possibly empty). */
    public Box intersect(Box other) {
        checkDims(other);
        int[] l = new int[lo.length];
        int[] h = new int[lo.length];
        for (int d = 0; d < lo.length; d++) {
            l[d] = Math.max(lo[d], other.lo[d]);
            h[d] = Math.max(l[d], Math.min(hi[d], other.hi[d]));
        }
        return new Box(l, h);
    }

    /** The smallest box holding this box and {@code other}; an empty box adds nothing. */
    public Box hull(Box other) {
        checkDims(other);
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        int[] l = new int[lo.length];
        int[] h = new int[lo.length];
        for (int d = 0; d < lo.length; d++) {
            l[d] = Math.min(lo[d], other.lo[d]);
            h[d] = Math.max(hi[d], other.hi[d]);
        }
        return new Box(l, h);
    }

    /** This box widened by {@code width} on both sides along {@code d}, then clipped to {@code within}. */
    public Box grow(int d, int width, Box within) {
        int[] l = lo.clone();
        int[] h = hi.clone();
        l[d] -= width;
        h[d] += width;
        return new Box(l, h).intersect(within);
    }

    /** Whether every element of {@code other} is in this box (an empty box is in every box). */
    public boolean contains(Box other) {
        checkDims(other);
        if (other.isEmpty()) {
            return true;
        }
        for (int d = 0; d < lo.length; d++) {
            if (other.lo[d] < lo[d] || other.hi[d] > hi[d]) {
                return false;
            }
        }
        return true;
    }

    private void checkDims(Box other) {
        if (other.lo.length != lo.length) {
            throw new IllegalArgumentException("boxes of " + lo.length + " and " + other.lo.length + " dimensions: " + this + ", " + other);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Box b && Arrays.equals(lo, b.lo) && Arrays.equals(hi, b.hi);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lo) + Arrays.hashCode(hi);
    }

    /** E.g. {@code [0,8)x[4,16)}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner("x");
        for (int d = 0; d < lo.length; d++) {
            j.add("[" + lo[d] + "," + hi[d] + ")");
        }
        return j.toString();
    }
}
