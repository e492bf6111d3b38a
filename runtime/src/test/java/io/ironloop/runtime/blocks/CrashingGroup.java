package io.ironloop.runtime.blocks;

import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A process group that kills its own member at its {@code crashAt}-th group operation (counting across
 * shrinks): the member is crashed in the in-JVM cluster and its thread unwinds with {@link Crashed}. So a
 * seeded number puts the death anywhere: mid-iteration, mid-copy, in the handshake, mid-recovery. It can also
 * damage what it sends with one tag (a byte flipped in every message longer than a header), as a bad link or
 * bad memory would.
 */
final class CrashingGroup implements ProcessGroup {
    /** The death of the member's thread. */
    static final class Crashed extends RuntimeException {
        Crashed() {
            super("crashed", null, false, false);
        }
    }

    private final ProcessGroup g;
    private final InJvmCluster cluster;
    private final AtomicInteger ops;
    private final int crashAt;
    private final int damagedTag;

    CrashingGroup(ProcessGroup g, InJvmCluster cluster, AtomicInteger ops, int crashAt) {
        this(g, cluster, ops, crashAt, -1);
    }

    /** A member that never crashes and damages what it sends with {@code damagedTag}. */
    static CrashingGroup damaging(ProcessGroup g, InJvmCluster cluster, int damagedTag) {
        return new CrashingGroup(g, cluster, new AtomicInteger(), Integer.MAX_VALUE, damagedTag);
    }

    private CrashingGroup(ProcessGroup g, InJvmCluster cluster, AtomicInteger ops, int crashAt, int damagedTag) {
        this.g = g;
        this.cluster = cluster;
        this.ops = ops;
        this.crashAt = crashAt;
        this.damagedTag = damagedTag;
    }

    /** Once crashed, every thread of the member (the loop's, the partner sender's) stops at its next operation, as in a dead process. */
    private void tick() {
        int n = ops.incrementAndGet();
        if (n == crashAt) {
            cluster.crash(g.worldRank(g.rank()));
        }
        if (n >= crashAt) {
            throw new Crashed();
        }
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
        tick();
        g.barrier();
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        tick();
        return g.broadcast(data, root);
    }

    @Override
    public double[] broadcast(double[] data, int root) {
        tick();
        return g.broadcast(data, root);
    }

    @Override
    public long[] broadcast(long[] data, int root) {
        tick();
        return g.broadcast(data, root);
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        tick();
        return g.allreduce(values, op);
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        tick();
        return g.allreduce(values, op);
    }

    @Override
    public int[] allreduce(int[] values, ReduceOp op) {
        tick();
        return g.allreduce(values, op);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        tick();
        return g.gather(data, root);
    }

    @Override
    public byte[][] allgather(byte[] data) {
        tick();
        return g.allgather(data);
    }

    @Override
    public void send(int dest, int tag, byte[] data) {
        tick();
        if (tag == damagedTag && data.length > 16) {
            byte[] bad = data.clone();
            bad[bad.length / 2] ^= 0x10;
            data = bad;
        }
        g.send(dest, tag, data);
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        tick();
        g.send(dest, tag, data);
    }

    @Override
    public byte[] receive(int source, int tag) {
        tick();
        return g.receive(source, tag);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        tick();
        return g.receiveDoubles(source, tag);
    }

    @Override
    public long agree(long value) {
        tick();
        return g.agree(value);
    }

    @Override
    public ShrinkResult shrink() {
        tick();
        ShrinkResult s = g.shrink();
        return new ShrinkResult(new CrashingGroup(s.group(), cluster, ops, crashAt, damagedTag), s.oldToNew());
    }

    @Override
    public void close() {
        g.close();
    }
}
