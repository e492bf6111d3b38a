package io.ironloop.core.plan;

/** The failures a plan weighs, each with its own MTBF. */
public enum FailureKind {
    /** One node is lost, with its processes, memory and local disk. */
    NODE,
    /** A whole rack of nodes is lost at once (a switch, a power distribution unit). */
    RACK,
    /** Every process of the job dies at once (a system-wide outage); the nodes and their disks come back. */
    JOB;

    /** The lowercase name used in the plan's output. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
