package io.ironloop.runtime.internal.state;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.ironloop.IronloopException;
import io.ironloop.core.StateSource;

/** Reads back what {@link ByteArraySink} recorded; reading past the end is a clear error. */
public final class ByteArraySource implements StateSource {
    private final String name;
    private final ByteBuffer buffer;

    /** Reads {@code bytes}, the saved state of {@code name} (for messages). */
    public ByteArraySource(String name, byte[] bytes) {
        this(name, ByteBuffer.wrap(bytes));
    }

    /** Reads the bytes of {@code bytes} from position to limit (its position is left alone), the saved state of {@code name}. */
    public ByteArraySource(String name, ByteBuffer bytes) {
        this.name = name;
        this.buffer = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private ByteBuffer need(long bytes) {
        if (buffer.remaining() < bytes) {
            throw new IronloopException("the saved state of " + name + " has " + buffer.remaining()
                    + " bytes left but the entity's restore reads " + bytes + " more: its save and restore disagree");
        }
        return buffer;
    }

    @Override
    public long getLong() {
        return need(8).getLong();
    }

    @Override
    public double getDouble() {
        return need(8).getDouble();
    }

    @Override
    public int getInt() {
        return need(4).getInt();
    }

    @Override
    public void getLongs(long[] into) {
        need(8L * into.length).asLongBuffer().get(into);
        buffer.position(buffer.position() + 8 * into.length);
    }

    @Override
    public void getDoubles(double[] into) {
        need(8L * into.length).asDoubleBuffer().get(into);
        buffer.position(buffer.position() + 8 * into.length);
    }

    @Override
    public void getInts(int[] into) {
        need(4L * into.length).asIntBuffer().get(into);
        buffer.position(buffer.position() + 4 * into.length);
    }

    @Override
    public void getBytes(ByteBuffer into) {
        ByteBuffer slice = need(into.remaining()).slice().limit(into.remaining());
        into.duplicate().put(slice);
        buffer.position(buffer.position() + slice.limit());
    }

    @Override
    public long remaining() {
        return buffer.remaining();
    }

    @Override
    public String toString() {
        return "saved state of " + name;
    }
}
