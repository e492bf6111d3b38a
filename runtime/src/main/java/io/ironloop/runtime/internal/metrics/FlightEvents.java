package io.ironloop.runtime.internal.metrics;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder events of a rank, committed by {@link RankMetrics} from the runtime's events, so a
 * recording shows Ironloop's checkpoints, restores, recoveries, triggers and membership changes next to GC and
 * I/O. They are instant events (the runtime reports a span when it has ended); a span is a {@link Timespan}
 * field. Their names start with {@code io.ironloop.}; all are in the category "Ironloop". Enabled by default in
 * a recording, without stack traces.
 */
final class FlightEvents {
    private FlightEvents() {
    }

    /** Events of one save: its capture, the handshake of a block loop's snapshot, its commit on a level. */
    @Name("io.ironloop.Checkpoint")
    @Label("Checkpoint")
    @Category("Ironloop")
    @Description("A save's capture (blocking the loop), a block snapshot's handshake, or its commit on a storage level")
    @StackTrace(false)
    static final class Checkpoint extends Event {
        @Label("Stage")
        @Description("snapshot, handshake or committed")
        String stage;
        @Label("State")
        String kind;
        @Label("Iteration")
        long iteration;
        @Label("Level")
        @Description("the storage level of a commit (disk, disk-copy, memory); empty otherwise")
        String level;
        @Label("Bytes")
        @DataAmount
        long bytes;
        @Label("Took")
        @Description("snapshot: time the loop was blocked; handshake: time the loop waited; committed: since the snapshot")
        @Timespan(Timespan.NANOSECONDS)
        long took;
        @Label("Committed")
        @Description("handshake: whether every rank kept the snapshot")
        boolean committed;
    }

    /** State was restored at start-up (or, for a block loop, from disk). */
    @Name("io.ironloop.Restore")
    @Label("Restore")
    @Category("Ironloop")
    @StackTrace(false)
    static final class Restore extends Event {
        @Label("State")
        String kind;
        @Label("Iteration")
        long iteration;
    }

    /** An online recovery ended: recovered (with its phases) or impossible. */
    @Name("io.ironloop.Recovery")
    @Label("Recovery")
    @Category("Ironloop")
    @StackTrace(false)
    static final class Recovery extends Event {
        @Label("Outcome")
        @Description("recovered or impossible")
        String outcome;
        @Label("Lost ranks")
        String lost;
        @Label("Iteration")
        long iteration;
        @Label("Source")
        @Description("memory or disk; empty if impossible")
        String source;
        @Label("Reason")
        String reason;
        @Label("Detection")
        @Timespan(Timespan.NANOSECONDS)
        long detect;
        @Label("Shrink")
        @Timespan(Timespan.NANOSECONDS)
        long shrink;
        @Label("Restore")
        @Timespan(Timespan.NANOSECONDS)
        long restore;
        @Label("Rebalance")
        @Timespan(Timespan.NANOSECONDS)
        long rebalance;
    }

    /** A termination signal or preemption notice arrived, or the save it asked for is durable. */
    @Name("io.ironloop.Trigger")
    @Label("Trigger")
    @Category("Ironloop")
    @StackTrace(false)
    static final class Trigger extends Event {
        @Label("Stage")
        @Description("fired or saved")
        String stage;
        @Label("Cause")
        String cause;
        @Label("Deadline")
        String deadline;
    }

    /** The group's membership changed: ranks found failed, or the survivors agreed on a smaller group. */
    @Name("io.ironloop.Membership")
    @Label("Membership")
    @Category("Ironloop")
    @StackTrace(false)
    static final class Membership extends Event {
        @Label("Change")
        @Description("detected (ranks found failed) or shrunk")
        String change;
        @Label("Ranks")
        @Description("the world ranks found failed or lost")
        String ranks;
        @Label("Old size")
        int oldSize;
        @Label("New size")
        int newSize;
        @Label("Took")
        @Timespan(Timespan.NANOSECONDS)
        long took;
    }
}
