package io.ironloop.runtime.internal.state;

import io.ironloop.core.StateSink;
import java.nio.ByteBuffer;

/**
 * A sink that writes little-endian values into a buffer that grows on demand: the one implementation of
 * {@link StateSink}'s puts. Subclasses say where the buffer comes from ({@link #room}).
 */
abstract class BufferSink implements StateSink {

    /** The buffer to write {@code bytes} more into (little-endian, positioned after what was written), grown if need be. */
    abstract ByteBuffer room(long bytes);

    @Override
    public final void putLong(long v) {
        room(8).putLong(v);
    }

    @Override
    public final void putDouble(double v) {
        room(8).putDouble(v);
    }

    @Override
    public final void putInt(int v) {
        room(4).putInt(v);
    }

    @Override
    public final void putLongs(long[] values) {
        ByteBuffer b = room(8L * values.length);
        b.asLongBuffer().put(values);
        b.position(b.position() + 8 * values.length);
    }

    @Override
    public final void putDoubles(double[] values) {
        ByteBuffer b = room(8L * values.length);
        b.asDoubleBuffer().put(values);
        b.position(b.position() + 8 * values.length);
    }

    @Override
    public final void putInts(int[] values) {
        ByteBuffer b = room(4L * values.length);
        b.asIntBuffer().put(values);
        b.position(b.position() + 4 * values.length);
    }

    @Override
    public final void putBytes(ByteBuffer bytes) {
        room(bytes.remaining()).put(bytes.duplicate());
    }
}
