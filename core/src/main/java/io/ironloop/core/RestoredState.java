package io.ironloop.core;

import io.ironloop.format.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A line read back as new arrays rather than into registered objects: each entry's raw little-endian
 * bytes with typed accessors that copy them out.
 */
public final class RestoredState {
    private final LineInfo line;
    private final Map<String, ElementType> types;
    private final Map<String, ByteBuffer> bytes;

    /** Made by the engine. */
    public RestoredState(LineInfo line, Map<String, ElementType> types, Map<String, ByteBuffer> bytes) {
        this.line = line;
        this.types = Map.copyOf(types);
        this.bytes = Map.copyOf(bytes);
    }

    public LineInfo line() {
        return line;
    }

    public Set<String> names() {
        return bytes.keySet();
    }

    public ElementType type(String name) {
        return check(name, null);
    }

    public double[] doubles(String name) {
        check(name, ElementType.DOUBLE);
        double[] a = new double[bytes.get(name).remaining() / 8];
        view(name).asDoubleBuffer().get(a);
        return a;
    }

    public float[] floats(String name) {
        check(name, ElementType.FLOAT);
        float[] a = new float[bytes.get(name).remaining() / 4];
        view(name).asFloatBuffer().get(a);
        return a;
    }

    public long[] longs(String name) {
        check(name, ElementType.LONG);
        long[] a = new long[bytes.get(name).remaining() / 8];
        view(name).asLongBuffer().get(a);
        return a;
    }

    public int[] ints(String name) {
        check(name, ElementType.INT);
        int[] a = new int[bytes.get(name).remaining() / 4];
        view(name).asIntBuffer().get(a);
        return a;
    }

    /** The raw bytes of any entry (a read-only view). */
    public ByteBuffer bytes(String name) {
        check(name, null);
        return view(name).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    private ByteBuffer view(String name) {
        return bytes.get(name).duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    private ElementType check(String name, ElementType want) {
        ElementType t = types.get(name);
        if (t == null) {
            throw new NoSuchElementException("line " + line.sequence() + " of " + line.series() + " has no entry '" + name
                    + "'; it has " + types.keySet());
        }
        if (want != null && t != want) {
            throw new IllegalArgumentException("entry '" + name + "' holds " + t + " elements, not " + want);
        }
        return t;
    }
}
