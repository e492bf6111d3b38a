package io.ironloop.runtime.testing;

import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import java.util.Set;

/**
 * A process group that passes every call to another, for tests that watch or disturb a member's group operations:
 * {@link #beforeOperation()} runs before each collective, point-to-point operation, agreement and shrink (not before
 * the queries: rank, size, world rank, leader, failed ranks, job id). {@link #shrink()} wraps the shrunk group with
 * {@link #wrap}.
 */
public abstract class ForwardingGroup implements ProcessGroup {
    private final ProcessGroup delegate;

    protected ForwardingGroup(ProcessGroup delegate) {
        this.delegate = delegate;
    }

    /** The group every call goes to. */
    protected final ProcessGroup delegate() {
        return delegate;
    }

    /** Runs before every operation that communicates; does nothing unless overridden. */
    protected void beforeOperation() {
    }

    /** The same kind of decorator around {@code shrunk}, the group a shrink made. */
    protected abstract ProcessGroup wrap(ProcessGroup shrunk);

    @Override
    public int rank() {
        return delegate.rank();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public String jobId() {
        return delegate.jobId();
    }

    @Override
    public int worldRank(int rank) {
        return delegate.worldRank(rank);
    }

    @Override
    public int leader() {
        return delegate.leader();
    }

    @Override
    public Set<Integer> failedRanks() {
        return delegate.failedRanks();
    }

    @Override
    public void barrier() {
        beforeOperation();
        delegate.barrier();
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        beforeOperation();
        return delegate.broadcast(data, root);
    }

    @Override
    public double[] broadcast(double[] data, int root) {
        beforeOperation();
        return delegate.broadcast(data, root);
    }

    @Override
    public long[] broadcast(long[] data, int root) {
        beforeOperation();
        return delegate.broadcast(data, root);
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        beforeOperation();
        return delegate.allreduce(values, op);
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        beforeOperation();
        return delegate.allreduce(values, op);
    }

    @Override
    public int[] allreduce(int[] values, ReduceOp op) {
        beforeOperation();
        return delegate.allreduce(values, op);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        beforeOperation();
        return delegate.gather(data, root);
    }

    @Override
    public byte[][] allgather(byte[] data) {
        beforeOperation();
        return delegate.allgather(data);
    }

    @Override
    public void send(int dest, int tag, byte[] data) {
        beforeOperation();
        delegate.send(dest, tag, data);
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        beforeOperation();
        delegate.send(dest, tag, data);
    }

    @Override
    public byte[] receive(int source, int tag) {
        beforeOperation();
        return delegate.receive(source, tag);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        beforeOperation();
        return delegate.receiveDoubles(source, tag);
    }

    @Override
    public long agree(long value) {
        beforeOperation();
        return delegate.agree(value);
    }

    @Override
    public ShrinkResult shrink() {
        beforeOperation();
        ShrinkResult s = delegate.shrink();
        return new ShrinkResult(wrap(s.group()), s.oldToNew());
    }

    @Override
    public void close() {
        delegate.close();
    }
}
