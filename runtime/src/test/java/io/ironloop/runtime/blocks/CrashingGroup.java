package io.ironloop.runtime.blocks;

import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.testing.ForwardingGroup;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A process group that kills its own member at its {@code crashAt}-th group operation (counting across
 * shrinks): the member is crashed in the in-JVM cluster and its thread unwinds with {@link Crashed}. So a
 * seeded number puts the death anywhere: mid-iteration, mid-copy, in the handshake, mid-recovery. It can also
 * damage what it sends with one tag (a byte flipped in every message longer than a header), as a bad link or
 * bad memory would.
 */
final class CrashingGroup extends ForwardingGroup {
    /** The death of the member's thread. */
    static final class Crashed extends RuntimeException {
        Crashed() {
            super("crashed", null, false, false);
        }
    }

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
        super(g);
        this.cluster = cluster;
        this.ops = ops;
        this.crashAt = crashAt;
        this.damagedTag = damagedTag;
    }

    /** Once crashed, every thread of the member (the loop's, the partner sender's) stops at its next operation, as in a dead process. */
    @Override
    protected void beforeOperation() {
        int n = ops.incrementAndGet();
        if (n == crashAt) {
            cluster.crash(worldRank(rank()));
        }
        if (n >= crashAt) {
            throw new Crashed();
        }
    }

    @Override
    public void send(int dest, int tag, byte[] data) {
        if (tag == damagedTag && data.length > 16) {
            byte[] bad = data.clone();
            bad[bad.length / 2] ^= 0x10;
            data = bad;
        }
        super.send(dest, tag, data);
    }

    @Override
    protected ProcessGroup wrap(ProcessGroup shrunk) {
        return new CrashingGroup(shrunk, cluster, ops, crashAt, damagedTag);
    }
}
