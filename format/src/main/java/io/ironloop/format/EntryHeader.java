package io.ironloop.format;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a writer is told about one entry: its name, element type, shape, scope and the codec its chunks
 * are compressed with. The byte length is the product of the shape times the element width.
 *
 * @param name unique within a file, 1 to 1024 characters
 * @param type element type
 * @param shape dimensions, each at least 0; empty for a scalar
 * @param scope who the entry belongs to
 * @param codec the codec the writer tries for each chunk
 */
public record EntryHeader(String name, ElementType type, long[] shape, Scope scope, Codec codec) {
    public EntryHeader {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(codec, "codec");
        shape = shape.clone();
        if (name.isEmpty() || name.length() > 1024) {
            throw new IllegalArgumentException("entry names are 1..1024 characters: '" + name + "'");
        }
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape) + " of entry " + name);
            }
        }
        byteLength(type, shape);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** Number of payload bytes. */
    public long byteLength() {
        return byteLength(type, shape);
    }

    static long byteLength(ElementType type, long[] shape) {
        long n = type.width();
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntryHeader h && name.equals(h.name) && type == h.type && Arrays.equals(shape, h.shape)
                && scope == h.scope && codec == h.codec;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, Arrays.hashCode(shape), scope, codec);
    }

    @Override
    public String toString() {
        return name + ":" + type + Arrays.toString(shape) + "/" + scope + "/" + codec;
    }
}
