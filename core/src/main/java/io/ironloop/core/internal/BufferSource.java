package io.ironloop.core.internal;

import io.ironloop.core.StateSource;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/** A {@link StateSource} over saved little-endian bytes; reading past the end is an {@link IllegalStateException}. */
final class BufferSource implements StateSource {
    private final ByteBuffer b;

    BufferSource(ByteBuffer b) {
        this.b = b;
    }

    private void need(long bytes) {
        if (b.remaining() < bytes) {
            throw new IllegalStateException("the entity reads " + bytes + " bytes but only " + b.remaining()
                    + " remain of its saved state: its restore() does not match its save()", new BufferUnderflowException());
        }
    }

    @Override
    public long getLong() {
        need(8);
        return b.getLong();
    }

    @Override
    public double getDouble() {
        need(8);
        return b.getDouble();
    }

    @Override
    public int getInt() {
        need(4);
        return b.getInt();
    }

    @Override
    public void getLongs(long[] into) {
        need(8L * into.length);
        b.asLongBuffer().get(into);
        b.position(b.position() + 8 * into.length);
    }

    @Override
    public void getDoubles(double[] into) {
        need(8L * into.length);
        b.asDoubleBuffer().get(into);
        b.position(b.position() + 8 * into.length);
    }

    @Override
    public void getInts(int[] into) {
        need(4L * into.length);
        b.asIntBuffer().get(into);
        b.position(b.position() + 4 * into.length);
    }

    @Override
    public void getBytes(ByteBuffer into) {
        need(into.remaining());
        ByteBuffer slice = b.slice(b.position(), into.remaining());
        into.put(slice);
        b.position(b.position() + slice.capacity());
    }

    @Override
    public long remaining() {
        return b.remaining();
    }
}
