package io.ironloop.group.internal;

import io.ironloop.group.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/** Element-wise combination of little-endian encoded arrays, one element type at a time. */
enum Reduction {
    DOUBLE(Double.BYTES), LONG(Long.BYTES), INT(Integer.BYTES);

    private final int elementSize;

    Reduction(int elementSize) {
        this.elementSize = elementSize;
    }

    int elementSize() {
        return elementSize;
    }

    /**
     * {@code acc[i] = acc[i] op in[inOffset + i]} for every element of {@code acc}.
     */
    void combineInto(byte[] acc, byte[] in, int inOffset, ReduceOp op) {
        combineInto(ByteBuffer.wrap(acc), ByteBuffer.wrap(in, inOffset, acc.length).slice(), op);
    }

    /**
     * {@code acc[i] = acc[i] op in[i]} for every element of {@code acc}'s remaining bytes, both little-endian; their
     * positions do not move.
     */
    void combineInto(ByteBuffer acc, ByteBuffer in, ReduceOp op) {
        ByteBuffer a = acc.slice().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = in.slice().order(ByteOrder.LITTLE_ENDIAN);
        switch (this) {
            case DOUBLE -> {
                DoubleBuffer x = a.asDoubleBuffer();
                DoubleBuffer y = b.asDoubleBuffer();
                for (int i = 0, n = x.limit(); i < n; i++) {
                    x.put(i, op.apply(x.get(i), y.get(i)));
                }
            }
            case LONG -> {
                LongBuffer x = a.asLongBuffer();
                LongBuffer y = b.asLongBuffer();
                for (int i = 0, n = x.limit(); i < n; i++) {
                    x.put(i, op.apply(x.get(i), y.get(i)));
                }
            }
            case INT -> {
                IntBuffer x = a.asIntBuffer();
                IntBuffer y = b.asIntBuffer();
                for (int i = 0, n = x.limit(); i < n; i++) {
                    x.put(i, op.apply(x.get(i), y.get(i)));
                }
            }
        }
    }
}
