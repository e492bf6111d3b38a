package io.ironloop.runtime.blocks;

import io.ironloop.config.ParameterKey;
import io.ironloop.core.Schedule;
import java.time.Duration;
import java.util.List;

/** The parameters of a {@link BlockLoop}: its in-memory snapshots, its disk lines, its memory budget and spares. */
public final class BlockKeys {
    /** When a block loop snapshots into memory. */
    public static final ParameterKey<Schedule> SNAPSHOT_EVERY = Schedule.key("SNAPSHOT_EVERY", Schedule.every(10),
            "when a block loop snapshots into memory (own memory + partner copies, copied in the background and committed by a "
                    + "handshake one iteration later): every N iterations, every T of wall time (30s), or adaptive: Young/Daly's "
                    + "sqrt(2 C MTBF) from the measured cost C of its recent snapshots and MTBF; a failure loses at most one interval "
                    + "plus one iteration");

    /** When a block loop writes a snapshot to disk. */
    public static final ParameterKey<Schedule> DISK_EVERY = Schedule.key("DISK_EVERY", Schedule.every(10),
            "when a block loop writes a snapshot to disk (FT_FOLDER), in the background: on every N-th snapshot, at the first snapshot "
                    + "after every T (30m), adaptive (from the measured cost of its recent disk lines and DISK_MTBF), or never (0); what a "
                    + "rollback uses when a rank and every holder of its copy are lost, and what a relaunched job resumes from");

    /** The MTBF of the failures only the disk recovers. */
    public static final ParameterKey<Duration> DISK_MTBF = ParameterKey.duration("DISK_MTBF", Duration.ofDays(7), Duration.ofSeconds(1),
            "mean time between the failures only the disk recovers (a rank and every holder of its copy lost together, the whole "
                    + "job): the adaptive interval of DISK_EVERY; refined by the rollbacks to disk the job sees");

    /** The memory a block loop may use for its state and snapshots, per process. */
    public static final ParameterKey<Long> MEMORY_BUDGET = ParameterKey.size("MEMORY_BUDGET", 0, 0, Long.MAX_VALUE,
            "memory per process for a block loop's state and its in-memory snapshots (e.g. 4GiB); the loop refuses to start, with "
                    + "the figures, when state × memory factor exceeds it; 0: the copies (state × (factor − 1), kept off the heap) must fit the "
                    + "JVM's direct-memory limit (-XX:MaxDirectMemorySize, by default -Xmx)");

    /** Spare ranks, the last ones of the group. */
    public static final ParameterKey<Long> SPARES = ParameterKey.integer("SPARES", 0L, 0,
            "the last N ranks of the job are spares: they own no blocks and adopt a lost rank's blocks (set by ironloop run --spares)");

    /** This process's failure domain. */
    public static final ParameterKey<String> HOST = ParameterKey.string("HOST", null,
            "this process's failure domain for partner placement (set by ironloop run; unset: the host name)");

    /** Whether each host keeps a block loop's disk lines in its own store. */
    public static final ParameterKey<Boolean> DISK_PER_HOST = ParameterKey.bool("DISK_PER_HOST", false,
            "a block loop writes its disk lines to FT_FOLDER/<HOST>, one store per host as if FT_FOLDER were each node's own disk "
                    + "(ironloop run --fake-hosts K on one machine); a restart reads other hosts' lines through the group, and "
                    + "rebuilds a host's lost lines from its erasure groups' parity (MEMORY_SCHEME xor or rs)");

    /** How the in-memory copies of other ranks' snapshots are kept. */
    public enum MemoryScheme {
        /** Whole copies at partner ranks (waLBerla's pairwise scheme): memory ×5, loses data when a rank and its partner die. */
        PARTNER,
        /** XOR parity over groups of ERASURE_K + 1 ranks: one loss per group, memory ×(3 + 2/k). */
        XOR,
        /** Reed–Solomon RS(k, m) over groups of ERASURE_K + ERASURE_M ranks: m losses per group, memory ×(3 + 2m/k). */
        RS
    }

    /** Which in-memory scheme protects the other ranks' snapshots. */
    public static final ParameterKey<MemoryScheme> MEMORY_SCHEME = ParameterKey.choice("MEMORY_SCHEME", MemoryScheme.class,
            MemoryScheme.PARTNER, "how a block loop keeps other ranks' snapshots in memory: partner (whole copies at a partner rank, "
                    + "memory ×5), xor (XOR parity over groups of ERASURE_K + 1 ranks: one loss per group, memory ×(3 + 2/k)) or rs "
                    + "(Reed–Solomon over groups of ERASURE_K + ERASURE_M ranks: ERASURE_M losses per group, memory ×(3 + 2m/k)); "
                    + "losses beyond that roll back to disk");

    /** Data members per erasure-coded group. */
    public static final ParameterKey<Long> ERASURE_K = ParameterKey.integer("ERASURE_K", 4L, 1,
            "data members k of an erasure-coded group (MEMORY_SCHEME xor or rs): the group has k + m ranks and each keeps m/k of a "
                    + "snapshot as parity; a job of fewer ranks forms one smaller group");

    /** Parity members per Reed–Solomon group. */
    public static final ParameterKey<Long> ERASURE_M = ParameterKey.integer("ERASURE_M", 2L, 1,
            "parity shares m of a Reed–Solomon group (MEMORY_SCHEME rs): how many members of a group may be lost together "
                    + "(k + m ≤ 128); xor has m = 1");

    /** Every key of this class, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(SNAPSHOT_EVERY, DISK_EVERY, DISK_MTBF, MEMORY_BUDGET, SPARES, HOST,
            DISK_PER_HOST, MEMORY_SCHEME, ERASURE_K, ERASURE_M);

    private BlockKeys() {
    }
}
