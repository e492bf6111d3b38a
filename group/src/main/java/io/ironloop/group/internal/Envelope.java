package io.ironloop.group.internal;

/**
 * One message between members: which group incarnation ({@code epoch}) and channel ({@code kind}) it
 * belongs to, a tag (user tag, collective sequence number or agreement id), the sender's world rank and
 * the payload.
 */
public record Envelope(int epoch, Kind kind, long tag, int source, byte[] payload) {

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
