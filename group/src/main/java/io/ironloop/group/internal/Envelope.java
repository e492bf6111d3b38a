package io.ironloop.group.internal;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One message between members: which group incarnation ({@code epoch}) and channel ({@code kind}) it
 * belongs to, a tag (user tag, collective sequence number or agreement id), the sender's world rank and
 * the payload: its bytes from position to limit. A payload is a heap buffer, or a direct one for bulk data
 * (sent with {@code ProcessGroup.send(int, int, ByteBuffer)}), which the direct data connections move
 * without a copy in this process.
 */
public record Envelope(int epoch, Kind kind, long tag, int source, ByteBuffer payload) {

    public Envelope {
        Objects.requireNonNull(payload, "payload");
    }

    /** An envelope of a heap payload (not copied). */
    public Envelope(int epoch, Kind kind, long tag, int source, byte[] payload) {
        this(epoch, kind, tag, source, ByteBuffer.wrap(payload));
    }

    /** The payload's bytes as an array: the payload's own array when it wraps exactly one, otherwise a copy. */
    public static byte[] array(ByteBuffer payload) {
        if (payload.hasArray() && payload.arrayOffset() == 0 && payload.position() == 0 && payload.remaining() == payload.array().length) {
            return payload.array();
        }
        byte[] out = new byte[payload.remaining()];
        payload.duplicate().get(out);
        return out;
    }

    /** {@link #array(ByteBuffer)} of this envelope's payload. */
    public byte[] bytes() {
        return array(payload);
    }

    /** This envelope with a private copy of its payload, direct if the payload is direct. */
    public Envelope copy() {
        ByteBuffer src = payload.duplicate();
        ByteBuffer c = src.isDirect() ? ByteBuffer.allocateDirect(src.remaining()) : ByteBuffer.allocate(src.remaining());
        c.put(src).flip();
        return new Envelope(epoch, kind, tag, source, c);
    }

    /** The channel a message belongs to; each has its own matching. */
    public enum Kind {
        /** User point-to-point messages, matched by (source, tag). */
        P2P,
        /** Internal messages of collectives, matched by (source, collective sequence number). */
        COLLECTIVE,
        /** Fault-tolerant agreement protocol messages, handled on arrival. */
        AGREE,
        /** "You were declared failed": sent by a member to each rank it excludes, handled on arrival. */
        FENCE;

        private static final Kind[] VALUES = values();

        /** The kind with this ordinal. */
        public static Kind of(int ordinal) {
            if (ordinal < 0 || ordinal >= VALUES.length) {
                throw new IllegalArgumentException("unknown message kind " + ordinal);
            }
            return VALUES[ordinal];
        }
    }
}
