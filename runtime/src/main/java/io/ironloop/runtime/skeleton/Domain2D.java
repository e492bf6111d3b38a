package io.ironloop.runtime.skeleton;

/**
 * A two-dimensional {@link DoubleDomain} with direct accessors: {@code get(i, j)} by global coordinates, {@code
 * getLocal(li, lj)} by local ones, {@code index(i, j)} for kernels that walk {@link #data()} themselves.
 */
public final class Domain2D extends DoubleDomain {
    private int lo0;
    private int lo1;
    private int s0;
    private int s1;

    Domain2D(Box box, StorageOrder order) {
        super(box, order);
    }

    @Override
    void reshaped() {
        lo0 = box().lo(0);
        lo1 = box().lo(1);
        s0 = stride(0);
        s1 = stride(1);
    }

    /** The array index of global coordinates {@code (i, j)}. */
    public int index(int i, int j) {
        return (i - lo0) * s0 + (j - lo1) * s1;
    }

    /** The element at global coordinates {@code (i, j)}. */
    public double get(int i, int j) {
        return data()[(i - lo0) * s0 + (j - lo1) * s1];
    }

    /** Sets the element at global coordinates {@code (i, j)}. */
    public void set(int i, int j, double value) {
        data()[(i - lo0) * s0 + (j - lo1) * s1] = value;
    }

    /** The element at local coordinates {@code (li, lj)}. */
    public double getLocal(int li, int lj) {
        return data()[li * s0 + lj * s1];
    }

    /** Sets the element at local coordinates {@code (li, lj)}. */
    public void setLocal(int li, int lj, double value) {
        data()[li * s0 + lj * s1] = value;
    }
}
