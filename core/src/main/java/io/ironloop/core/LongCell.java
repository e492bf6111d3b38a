package io.ironloop.core;

/** A protected long scalar: register it with the engine and keep using {@link #get()}/{@link #set(long)}. */
public final class LongCell {
    final long[] value = new long[1];

    public LongCell(long initial) {
        value[0] = initial;
    }

    public long get() {
        return value[0];
    }

    public void set(long v) {
        value[0] = v;
    }

    @Override
    public String toString() {
        return Long.toString(value[0]);
    }
}
