package io.ironloop.runtime.event;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What happened in one rank's runtime: the one typed stream that leaves the runtime. Logs, metrics, tests
 * and the launcher link subscribe to it through {@link RuntimeEvents}; nothing else reports events.
 *
 * <p>Ranks are <em>world</em> ranks (their rank at launch), so an event means the same process before and
 * after a shrink.
 */
public sealed interface RuntimeEvent {

    /** What a save or restore was about. */
    enum StateKind {
        /** DeLIA's global state: the same on every rank. */
        GLOBAL,
        /** DeLIA's per-rank (local) state. */
        LOCAL,
        /** The blocks of a block-structured domain and the loop's own state. */
        BLOCKS
    }

    /** Where a snapshot was taken from on recovery. */
    enum RecoverySource {
        /** This rank's own in-memory copy or a partner's in-memory copy: no disk in the path. */
        MEMORY,
        /** The newest complete line on disk: the in-memory copies of a lost rank were all lost too. */
        DISK
    }

    /** The iteration this rank starts (reported once per iteration by loops that run under the launcher). */
    record IterationStarted(long iteration) implements RuntimeEvent {
    }

    /** State was copied for a save on the calling thread; writing it goes on in the background. */
    record Snapshotted(StateKind kind, long iteration, Duration blocking, long bytes) implements RuntimeEvent {
        public Snapshotted {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(blocking, "blocking");
        }
    }

    /**
     * The handshake of a block loop's snapshot, made one iteration after its capture: whether every rank kept
     * it (it is the committed snapshot now), and how long this rank's loop waited for the snapshot's levels
     * (checksums, partner copies, disk staging) and the handshake's allreduce (after a failure: the failure
     * path's agreement). With the capture, what the snapshot cost the loop's thread.
     */
    record Handshake(long iteration, boolean committed, Duration waited) implements RuntimeEvent {
        public Handshake {
            Objects.requireNonNull(waited, "waited");
        }
    }

    /**
     * A save became committed on a storage level ({@code "disk"}, {@code "memory"} for the in-memory copies
     * after the handshake, …), with what it cost.
     *
     * <p>{@code blocking} is the time the application's thread waited for this save and that no other level's
     * event of the same save reports, so that the blocking of a rank's events adds up to what its saves cost the
     * application: the snapshot's copy on the level it was taken for (a line on disk, a block loop's in-memory
     * snapshot, whose handshake also waits for the disk staging of the snapshots that go to disk as well), and
     * zero for the levels written in the background from what another level committed (a block loop's disk
     * line, the copies on {@code shared} or {@code s3}). {@code bytes} is what the level holds of this rank's
     * save: the line's file on disk, the rank's own snapshot in memory (partners' copies not counted), the copy
     * on a remote level.
     *
     * @param kind what was saved
     * @param iteration the iteration the save holds
     * @param level the storage level
     * @param sinceSnapshot from the snapshot to the commit on this level
     * @param blocking what the application's thread waited for it (above), not negative
     * @param bytes what the level holds of it, not negative
     */
    record Saved(StateKind kind, long iteration, String level, Duration sinceSnapshot, Duration blocking, long bytes)
            implements RuntimeEvent {
        /** The level of a line on disk: the global series of rank 0, a rank's local series, a block line on disk. */
        public static final String DISK = "disk";
        /** The level of the second copy of the global state on disk, written by rank {@code size / 2}. */
        public static final String DISK_COPY = "disk-copy";
        /** The level of in-memory copies, committed after the handshake. */
        public static final String MEMORY = "memory";

        public Saved {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(level, "level");
            Objects.requireNonNull(sinceSnapshot, "sinceSnapshot");
            Objects.requireNonNull(blocking, "blocking");
            if (blocking.isNegative() || bytes < 0) {
                throw new IllegalArgumentException("a save's blocking time and bytes cannot be negative: " + blocking + ", " + bytes);
            }
        }
    }

    /** State was restored; the loop resumes at {@code iteration}. */
    record Restored(StateKind kind, long iteration) implements RuntimeEvent {
        public Restored {
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** The newest saved line was made under other settings: recovery starts fresh, the old lines are kept. */
    record SettingsChanged(String savedFingerprint, String currentFingerprint) implements RuntimeEvent {
    }

    /** A job over a folder that already holds a completion record: the application reports it. */
    record AlreadyComplete(String folder) implements RuntimeEvent {
    }

    /** The application completed and recorded its result. */
    record Completed(long iteration) implements RuntimeEvent {
    }

    /** Ranks were found failed (by the heartbeat detector, the group, or a peer's departure notice). */
    record FailureDetected(Set<Integer> worldRanks) implements RuntimeEvent {
        public FailureDetected {
            worldRanks = Set.copyOf(worldRanks);
        }
    }

    /** A termination signal or preemption notice arrived: the published state is being saved. */
    record TriggerFired(String cause, String deadline) implements RuntimeEvent {
    }

    /**
     * The save a {@link TriggerFired} asked for is durable: the published local state, and on a rank holding a
     * copy of the global state its published global state.
     */
    record TriggerSaved(String cause) implements RuntimeEvent {
    }

    /** The heartbeat detector's failure made this rank save its published local state. */
    record FailureSaved(Set<Integer> worldRanks) implements RuntimeEvent {
        public FailureSaved {
            worldRanks = Set.copyOf(worldRanks);
        }
    }

    /**
     * A loop that recovers inside the job started: a failed rank is recovered from the copies in memory, not by
     * a relaunch (the launcher keeps the job running when a rank dies).
     *
     * @param levels the storage levels, nearest first
     * @param memoryFactor memory per byte of state the levels keep
     * @param spares idle spare ranks
     */
    record OnlineProtection(java.util.List<String> levels, double memoryFactor, int spares) implements RuntimeEvent {
        public OnlineProtection {
            levels = java.util.List.copyOf(levels);
        }
    }

    /** The survivors agreed on who is alive: the group shrank from {@code oldSize} to {@code newSize}. */
    record GroupShrunk(Set<Integer> lostWorldRanks, int oldSize, int newSize, Duration took) implements RuntimeEvent {
        public GroupShrunk {
            lostWorldRanks = Set.copyOf(lostWorldRanks);
            Objects.requireNonNull(took, "took");
        }
    }

    /**
     * The job recovered without a relaunch: the lost ranks' blocks were restored from surviving copies,
     * reassigned, and the loop resumes at {@code iteration}. Published on every survivor.
     *
     * @param lostWorldRanks the ranks lost in this failure
     * @param iteration the committed iteration every survivor resumes at
     * @param source where the snapshots came from
     * @param sparesUsed how many spare ranks adopted lost ranks' blocks
     * @param detect from the failure's detection by this rank to the start of the shrink
     * @param shrink the shrink (agreement on survivors)
     * @param restore restoring every block from the copies (including transfers)
     * @param rebalance reassigning blocks and rebuilding neighbour relations
     */
    record RecoveredOnline(Set<Integer> lostWorldRanks, long iteration, RecoverySource source, int sparesUsed,
            Duration detect, Duration shrink, Duration restore, Duration rebalance) implements RuntimeEvent {
        public RecoveredOnline {
            lostWorldRanks = Set.copyOf(lostWorldRanks);
            Objects.requireNonNull(source, "source");
        }
    }

    /** Online recovery is impossible (no surviving copy and no complete line on disk): the job aborts. */
    record RecoveryImpossible(Set<Integer> lostWorldRanks, String reason) implements RuntimeEvent {
        public RecoveryImpossible {
            lostWorldRanks = Set.copyOf(lostWorldRanks);
        }
    }

    /**
     * The last iteration number the application will report, once it is known: a loop with a fixed number of
     * steps publishes it when it starts ({@code BlockLoop.run}, {@code Skeleton.run}); the imperative API when
     * the application declares it ({@code Ironloop.plan}). Optional: the launcher uses it only to refuse at
     * once a fault injected past the end of the run.
     */
    record Planned(long lastIteration) implements RuntimeEvent {
    }

    /**
     * Error masking (H-RADIC's Algorithm 4, on demand): a protector this rank reaches moved — its site's cluster protector
     * failed over to another node, or the site's ranks were placed elsewhere — and the rank, finding the address it had
     * failing, asked the protectors it knows for the table and reaches it at its new address now. Published by the sites
     * module's observer of committed lines ({@link CommittedLineObserver}) when it delivers a line's notice there.
     *
     * @param site the site whose cluster protector moved
     * @param from the address that failed
     * @param to the address the rank reaches it at now
     * @param tableVersion the version of the table that says so
     * @param askedAt the protector that answered with that table ({@code host:port})
     * @param series the series of the line whose notice was delivered there
     * @param iteration that line's iteration
     */
    record ProtectorMoved(String site, String from, String to, long tableVersion, String askedAt, String series, long iteration)
            implements RuntimeEvent {
        public ProtectorMoved {
            Objects.requireNonNull(site, "site");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(askedAt, "askedAt");
            Objects.requireNonNull(series, "series");
        }
    }

    /**
     * An event of the application's own for the launcher's timeline (work stolen, devices changed, a
     * benchmark's phase): a type and its fields (strings, numbers, booleans, lists and maps of those).
     *
     * @param type the event type, not blank and not one of the runtime's own
     * @param fields the fields, in a stable order; never the name {@code type}
     */
    record Reported(String type, java.util.Map<String, Object> fields) implements RuntimeEvent {
        public Reported {
            if (type == null || type.isBlank()) {
                throw new IllegalArgumentException("event type must not be blank");
            }
            if (fields.containsKey("type")) {
                throw new IllegalArgumentException("event field name 'type' is reserved");
            }
            fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
        }
    }

    /**
     * The application ends with an error it caught itself (a rank that exits with a status rather than
     * letting the exception escape {@code main}), so that the launcher names it as the failure's cause and
     * does not retry a configuration error or a deterministic one.
     */
    record ApplicationFailed(Throwable error) implements RuntimeEvent {
        public ApplicationFailed {
            Objects.requireNonNull(error, "error");
        }
    }
}
