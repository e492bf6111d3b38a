package io.ironloop.runtime.skeleton;

/** A three-dimensional {@link DoubleDomain} with direct accessors by global ({@code get(i, j, k)}) and local coordinates. */
public final class Domain3D extends DoubleDomain {
    private int lo0;
    private int lo1;
    private int lo2;
    private int s0;
    private int s1;
    private int s2;

    Domain3D(Box box, StorageOrder order) {
        super(box, order);
    }

    @Override
    void reshaped() {
        lo0 = box().lo(0);
        lo1 = box().lo(1);
        lo2 = box().lo(2);
        s0 = stride(0);
        s1 = stride(1);
        s2 = stride(2);
    }

    /** The array index of global coordinates {@code (i, j, k)}. */
    public int index(int i, int j, int k) {
        return (i - lo0) * s0 + (j - lo1) * s1 + (k - lo2) * s2;
    }

    /** The element at global coordinates {@code (i, j, k)}. */
    public double get(int i, int j, int k) {
        return data()[index(i, j, k)];
    }

    /** Sets the element at global coordinates {@code (i, j, k)}. */
    public void set(int i, int j, int k, double value) {
        data()[index(i, j, k)] = value;
    }

    /** The element at local coordinates {@code (li, lj, lk)}. */
    public double getLocal(int li, int lj, int lk) {
        return data()[li * s0 + lj * s1 + lk * s2];
    }
}
