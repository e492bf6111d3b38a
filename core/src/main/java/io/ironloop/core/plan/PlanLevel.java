package io.ironloop.core.plan;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The storage levels a plan chooses among, with the failures each one recovers and the bandwidth assumed when
 * no measured cost is given. In-memory levels protect groups of nodes: a group survives as many losses as the
 * level tolerates within its vulnerability window; more, and the failure falls to the next level of the chain.
 */
public enum PlanLevel {
    /** Pairwise in-memory copies on another node (waLBerla's scheme): a group of 2 that survives 1 loss. */
    PARTNER(true, EnumSet.of(FailureKind.NODE), 1.0e9, false),
    /** XOR parity over a group of k nodes: survives 1 loss per group. */
    XOR(true, EnumSet.of(FailureKind.NODE), 0.8e9, false),
    /** Reed–Solomon RS(k, m) over k + m nodes: survives m losses per group. */
    RS(true, EnumSet.of(FailureKind.NODE), 0.4e9, false),
    /** Each node's local disk: survives the job's death, not the loss of its node. */
    DISK(false, EnumSet.of(FailureKind.JOB), 0.5e9, false),
    /** A parallel file system every node sees: survives node, rack and job failures; its bandwidth is shared. */
    SHARED(false, EnumSet.of(FailureKind.NODE, FailureKind.RACK, FailureKind.JOB), 100e9, true),
    /** An object store (S3 API): survives node, rack and job failures; its bandwidth is shared. */
    S3(false, EnumSet.of(FailureKind.NODE, FailureKind.RACK, FailureKind.JOB), 20e9, true);

    private final boolean inMemory;
    private final Set<FailureKind> covers;
    private final double assumedBytesPerSecond;
    private final boolean sharedBandwidth;

    PlanLevel(boolean inMemory, Set<FailureKind> covers, double assumedBytesPerSecond, boolean sharedBandwidth) {
        this.inMemory = inMemory;
        this.covers = covers;
        this.assumedBytesPerSecond = assumedBytesPerSecond;
        this.sharedBandwidth = sharedBandwidth;
    }

    /** The name used in parameters, bench keys ({@code partner_checkpoint_gbps}) and the plan's output. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The level named {@code label} (any case).
     *
     * @throws IllegalArgumentException naming the known levels
     */
    public static PlanLevel of(String label) {
        for (PlanLevel l : values()) {
            if (l.label().equalsIgnoreCase(label.trim())) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown level '" + label + "': use partner, xor, rs, disk, shared or s3");
    }

    /** Whether the level keeps its copies in the memory of a group of nodes. */
    public boolean inMemory() {
        return inMemory;
    }

    /** The failures this level recovers (an in-memory level: as long as its group survives). */
    public Set<FailureKind> covers() {
        return covers;
    }

    /**
     * The bandwidth assumed when no cost is given: per rank for the levels each node writes on its own, for the
     * whole job for {@link #SHARED} and {@link #S3}, whose bandwidth every rank shares.
     */
    public double assumedBytesPerSecond() {
        return assumedBytesPerSecond;
    }

    /** Whether every rank shares this level's bandwidth (its cost grows with the number of ranks). */
    public boolean sharedBandwidth() {
        return sharedBandwidth;
    }
}
