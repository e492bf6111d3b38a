package io.ironloop.runtime.skeleton;

/** A one-dimensional {@link DoubleDomain} with direct accessors: {@code get(i)} by global coordinate. */
public final class Domain1D extends DoubleDomain {
    private int lo0;

    Domain1D(Box box, StorageOrder order) {
        super(box, order);
    }

    @Override
    void reshaped() {
        lo0 = box().lo(0);
    }

    /** The array index of global coordinate {@code i}. */
    public int index(int i) {
        return i - lo0;
    }

    /** The element at global coordinate {@code i}. */
    public double get(int i) {
        return data()[i - lo0];
    }

    /** Sets the element at global coordinate {@code i}. */
    public void set(int i, double value) {
        data()[i - lo0] = value;
    }

    /** The element at local coordinate {@code li}. */
    public double getLocal(int li) {
        return data()[li];
    }
}
