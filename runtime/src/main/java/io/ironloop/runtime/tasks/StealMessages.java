package io.ironloop.runtime.tasks;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The task pool's messages and tags (see {@code docs/runtime-tasks.md}). Each round has two point-to-point
 * tags in the reserved range {@code [2^30, 2^31)}: the <em>service</em> tag carries requests and the
 * end-of-round notice from a thief to a victim's service thread, the <em>reply</em> tag carries the answer
 * back to the thief's application thread.
 */
final class StealMessages {
    /** First tag the pool uses; applications must keep their own tags below it on the pool's group. */
    static final int TAG_BASE = 1 << 30;
    /** Round numbers map to tags modulo this period (two tags per round fill the reserved range exactly). */
    static final long ROUND_PERIOD = 1L << 29;

    /** What a service-tag message asks for. */
    enum Kind {
        /** "Give me some of the tasks you have not started." Answered on the reply tag. */
        REQUEST,
        /** "I will send you no more requests in this round." Not answered. */
        DONE
    }

    /** A decoded service-tag message. */
    record Control(Kind kind, long round, int fingerprint) {
    }

    /** A decoded reply: tasks given (possibly none), or a refusal because the ranks disagree on the round. */
    record Reply(long round, boolean mismatch, List<Integer> tasks) {
    }

    private static final int CONTROL_BYTES = 1 + Long.BYTES + Integer.BYTES;
    private static final int MISMATCH = -1;

    private StealMessages() {
    }

    static int serviceTag(long round) {
        return TAG_BASE + 2 * (int) (round % ROUND_PERIOD);
    }

    static int replyTag(long round) {
        return serviceTag(round) + 1;
    }

    static byte[] control(Kind kind, long round, int fingerprint) {
        return ByteBuffer.allocate(CONTROL_BYTES).put((byte) kind.ordinal()).putLong(round).putInt(fingerprint).array();
    }

    static Control decodeControl(byte[] bytes, int source) {
        if (bytes.length != CONTROL_BYTES || bytes[0] < 0 || bytes[0] >= Kind.values().length) {
            throw foreign(bytes, source, "service");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new Control(Kind.values()[b.get()], b.getLong(), b.getInt());
    }

    static byte[] grant(long round, List<Integer> tasks) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES + Integer.BYTES * (1 + tasks.size())).putLong(round).putInt(tasks.size());
        for (int t : tasks) {
            b.putInt(t);
        }
        return b.array();
    }

    static byte[] mismatch(long round) {
        return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(round).putInt(MISMATCH).array();
    }

    static Reply decodeReply(byte[] bytes, int source) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long round = b.getLong();
            int count = b.getInt();
            if (count == MISMATCH && !b.hasRemaining()) {
                return new Reply(round, true, List.of());
            }
            if (count < 0 || b.remaining() != Integer.BYTES * count) {
                throw foreign(bytes, source, "reply");
            }
            List<Integer> tasks = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                tasks.add(b.getInt());
            }
            return new Reply(round, false, List.copyOf(tasks));
        } catch (BufferUnderflowException e) {
            throw foreign(bytes, source, "reply");
        }
    }

    private static IllegalStateException foreign(byte[] bytes, int source, String channel) {
        return new IllegalStateException("a " + bytes.length + "-byte message from rank " + source + " on a task-pool " + channel
                + " tag is not a task-pool message: tags from " + TAG_BASE + " up are reserved for the task pool, and a "
                + "group may carry only one task pool");
    }
}
