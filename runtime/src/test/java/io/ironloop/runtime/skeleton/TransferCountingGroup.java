package io.ironloop.runtime.skeleton;

import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A process group that counts, for one message tag, the transfers this member has open: ranks it sent a message to
 * and has not yet received that rank's message from. {@link #mostOpen()} is the largest count it ever reached. Used on
 * one thread (the loop's), as the routing plan's exchange is.
 */
final class TransferCountingGroup implements ProcessGroup {
    private final ProcessGroup g;
    private final int tag;
    private final Set<Integer> open = new HashSet<>();
    private final AtomicInteger mostOpen;
    private final AtomicInteger transfers;

    TransferCountingGroup(ProcessGroup g, int tag, AtomicInteger mostOpen, AtomicInteger transfers) {
        this.g = g;
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
        g.send(dest, tag, data);
    }

    @Override
    public byte[] receive(int source, int tag) {
        byte[] b = g.receive(source, tag);
        if (tag == this.tag) {
            open.remove(source);
        }
        return b;
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        g.send(dest, tag, data);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return g.receiveDoubles(source, tag);
    }

    @Override
    public int rank() {
        return g.rank();
    }

    @Override
    public int size() {
        return g.size();
    }

    @Override
    public String jobId() {
        return g.jobId();
    }

    @Override
    public int worldRank(int rank) {
        return g.worldRank(rank);
    }

    @Override
    public int leader() {
        return g.leader();
    }

    @Override
    public Set<Integer> failedRanks() {
        return g.failedRanks();
    }

    @Override
    public void barrier() {
        g.barrier();
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        return g.broadcast(data, root);
    }

    @Override
    public double[] broadcast(double[] data, int root) {
        return g.broadcast(data, root);
    }

    @Override
    public long[] broadcast(long[] data, int root) {
        return g.broadcast(data, root);
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        return g.allreduce(values, op);
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        return g.allreduce(values, op);
    }

    @Override
    public int[] allreduce(int[] values, ReduceOp op) {
        return g.allreduce(values, op);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        return g.gather(data, root);
    }

    @Override
    public byte[][] allgather(byte[] data) {
        return g.allgather(data);
    }

    @Override
    public long agree(long value) {
        return g.agree(value);
    }

    @Override
    public ShrinkResult shrink() {
        ShrinkResult s = g.shrink();
        return new ShrinkResult(new TransferCountingGroup(s.group(), tag, mostOpen, transfers), s.oldToNew());
    }

    @Override
    public void close() {
        g.close();
    }
}
