package io.ironloop.runtime.skeleton;

import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.testing.ForwardingGroup;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A process group that counts, for one message tag, the transfers this member has open: ranks it sent a message to
 * and has not yet received that rank's message from. {@link #mostOpen()} is the largest count it ever reached. Used on
 * one thread (the loop's), as the routing plan's exchange is.
 */
final class TransferCountingGroup extends ForwardingGroup {
    private final int tag;
    private final Set<Integer> open = new HashSet<>();
    private final AtomicInteger mostOpen;
    private final AtomicInteger transfers;

    TransferCountingGroup(ProcessGroup g, int tag, AtomicInteger mostOpen, AtomicInteger transfers) {
        super(g);
        this.tag = tag;
        this.mostOpen = mostOpen;
        this.transfers = transfers;
    }

    /** The most transfers this member (and the groups its shrinks made) had open at once. */
    int mostOpen() {
        return mostOpen.get();
    }

    @Override
    public void send(int dest, int tag, byte[] data) {
        if (tag == this.tag) {
            open.add(dest);
            transfers.incrementAndGet();
            mostOpen.accumulateAndGet(open.size(), Math::max);
        }
        super.send(dest, tag, data);
    }

    @Override
    public byte[] receive(int source, int tag) {
        byte[] b = super.receive(source, tag);
        if (tag == this.tag) {
            open.remove(source);
        }
        return b;
    }

    @Override
    protected ProcessGroup wrap(ProcessGroup shrunk) {
        return new TransferCountingGroup(shrunk, tag, mostOpen, transfers);
    }
}
