package io.ironloop.runtime.blocks;

import io.ironloop.config.ParameterKey;
import java.util.List;

/** The parameters of a {@link BlockLoop}: its in-memory snapshots, its disk lines, its memory budget and spares. */
public final class BlockKeys {
    /** Iterations between two in-memory snapshots. */
    public static final ParameterKey<Long> SNAPSHOT_EVERY = ParameterKey.integer("SNAPSHOT_EVERY", 10L, 1,
            "iterations between two in-memory snapshots of a block loop (own memory + partner copies, copied in the background "
                    + "and committed by a handshake one iteration later); a failure loses at most this many iterations plus one");

    /** Every how many snapshots a disk line is written. */
    public static final ParameterKey<Long> DISK_EVERY = ParameterKey.integer("DISK_EVERY", 10L, 0,
            "write a block loop's snapshot to disk (FT_FOLDER) on every N-th snapshot, in the background; what a rollback uses when "
                    + "a rank and every holder of its copy are lost, and what a relaunched job resumes from; 0: never");

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

    /** Every key of this class, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(SNAPSHOT_EVERY, DISK_EVERY, MEMORY_BUDGET, SPARES, HOST);

    private BlockKeys() {
    }
}
