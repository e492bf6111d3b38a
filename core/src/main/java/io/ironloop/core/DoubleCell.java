package io.ironloop.core;

/** A protected double scalar: register it with the engine and keep using {@link #get()}/{@link #set(double)}. */
public final class DoubleCell {
    final double[] value = new double[1];

    public DoubleCell(double initial) {
        value[0] = initial;
    }

    public double get() {
        return value[0];
    }

    public void set(double v) {
        value[0] = v;
    }

    @Override
    public String toString() {
        return Double.toString(value[0]);
    }
}
