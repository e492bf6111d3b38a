package io.ironloop.group.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Buffers arrived messages by (epoch, kind, source, tag) until a receiver takes them; receivers wait
 * until a message arrives or an abort condition (failure, close) holds. Messages for groups that do not
 * exist yet (a faster survivor already shrank) wait here too.
 */
final class Mailbox {
    private record Key(int epoch, Envelope.Kind kind, int source, long tag) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<Key, ArrayDeque<ByteBuffer>> queues = new HashMap<>();

    void put(Envelope e) {
        lock.lock();
        try {
            queues.computeIfAbsent(new Key(e.epoch(), e.kind(), e.source(), e.tag()), k -> new ArrayDeque<>()).add(e.payload());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest buffered payload of (epoch, kind, source, tag), left in place; null when there is none. */
    ByteBuffer peek(int epoch, Envelope.Kind kind, int source, long tag) {
        lock.lock();
        try {
            ArrayDeque<ByteBuffer> q = queues.get(new Key(epoch, kind, source, tag));
            return q == null ? null : q.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter so it re-checks its abort condition. */
    void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the next message of (epoch, kind, source, tag), waiting for it.
     *
     * @param abort checked before each wait; a non-null result is thrown
     */
    ByteBuffer take(int epoch, Envelope.Kind kind, int source, long tag, Supplier<RuntimeException> abort) {
        Key key = new Key(epoch, kind, source, tag);
        lock.lock();
        try {
            while (true) {
                ArrayDeque<ByteBuffer> q = queues.get(key);
                if (q != null && !q.isEmpty()) {
                    ByteBuffer b = q.poll();
                    if (q.isEmpty()) {
                        queues.remove(key);
                    }
                    return b;
                }
                RuntimeException e = abort.get();
                if (e != null) {
                    throw e;
                }
                changed.await(200, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a message from world rank " + source, e);
        } finally {
            lock.unlock();
        }
    }

    /** Drops every buffered message of {@code epoch} (the group was shrunk or closed). */
    void discardEpoch(int epoch) {
        lock.lock();
        try {
            queues.keySet().removeIf(k -> k.epoch() == epoch);
        } finally {
            lock.unlock();
        }
    }
}
