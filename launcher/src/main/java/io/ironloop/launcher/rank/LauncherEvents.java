package io.ironloop.launcher.rank;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;

/**
 * Subscribes the launcher link to the runtime's events: translates each typed event into the launcher's
 * control protocol, the one place where event names and fields of that protocol are chosen. Ranks in
 * messages are world ranks, in ascending order; durations are seconds as JSON numbers.
 *
 * <table>
 *   <caption>events sent</caption>
 *   <tr><th>event</th><th>message</th><th>fields</th></tr>
 *   <tr><td>{@link RuntimeEvent.IterationStarted}</td><td>{@code iteration}</td><td>{@code iteration} (may wait:
 *       the launcher injects faults here)</td></tr>
 *   <tr><td>{@link RuntimeEvent.Saved}</td><td>{@code saved} ({@link SaveReport})</td><td>{@code iteration},
 *       {@code level} ({@link SavedLevel#of}); {@code blocking_s} and {@code bytes} ({@link RuntimeEvent.Saved#blocking},
 *       {@link RuntimeEvent.Saved#bytes}). A block loop's in-memory snapshots, taken every few iterations, go
 *       together: the first at once, then at most one message a second with {@code saves} (how many), the sums
 *       and the newest iteration; what is pending goes before any other message and when the application's
 *       {@code main} returns ({@link #flush}), so only a rank that ends otherwise (a crash, {@code System.exit}) may
 *       leave its last second's snapshots unreported</td></tr>
 *   <tr><td>{@link RuntimeEvent.Restored}</td><td>{@code restored} (global state, blocks) or {@code restored-local}</td>
 *       <td>{@code iteration}</td></tr>
 *   <tr><td>{@link RuntimeEvent.SettingsChanged}</td><td>{@code settings-changed}</td><td>{@code saved}, {@code current}</td></tr>
 *   <tr><td>{@link RuntimeEvent.AlreadyComplete}</td><td>{@code already-complete}</td><td>{@code folder}</td></tr>
 *   <tr><td>{@link RuntimeEvent.Completed}</td><td>{@code complete}</td><td>{@code iteration}</td></tr>
 *   <tr><td>{@link RuntimeEvent.FailureDetected}</td><td>{@code detected}</td><td>{@code failed}</td></tr>
 *   <tr><td>{@link RuntimeEvent.TriggerFired}</td><td>{@code trigger}</td><td>{@code cause}, {@code deadline}</td></tr>
 *   <tr><td>{@link RuntimeEvent.OnlineProtection}</td><td>{@code protection}</td><td>{@code online}: true</td></tr>
 *   <tr><td>{@link RuntimeEvent.GroupShrunk}</td><td>{@code shrunk}, from rank 0 of the shrunk group only</td><td>{@code lost},
 *       {@code size}, {@code shrink_s}</td></tr>
 *   <tr><td>{@link RuntimeEvent.RecoveredOnline}</td><td>{@code recovered}, from rank 0 of the shrunk group only</td>
 *       <td>{@code lost}, {@code iteration}, {@code source} ({@code memory} or {@code disk}), {@code spares},
 *       {@code detect_s}, {@code shrink_s}, {@code restore_s}, {@code rebalance_s}</td></tr>
 *   <tr><td>{@link RuntimeEvent.RecoveryImpossible}</td><td>{@code recovery-impossible}</td><td>{@code lost},
 *       {@code reason}</td></tr>
 *   <tr><td>{@link RuntimeEvent.Planned}</td><td>{@code plan}</td><td>{@code iterations} (the last iteration)</td></tr>
 *   <tr><td>{@link RuntimeEvent.ProtectorMoved}</td><td>{@code site-protector-moved}</td><td>{@code site}, {@code from},
 *       {@code to}, {@code table_version}, {@code asked}, {@code series}, {@code iteration}</td></tr>
 *   <tr><td>{@link RuntimeEvent.Reported}</td><td>its {@code type}</td><td>its fields</td></tr>
 *   <tr><td>{@link RuntimeEvent.ApplicationFailed}</td><td>{@code error}</td><td>{@code exception}, {@code message},
 *       {@code configuration} ({@link LauncherLink#error})</td></tr>
 * </table>
 * {@link RuntimeEvent.Snapshotted}, {@link RuntimeEvent.FailureSaved} and {@link RuntimeEvent.TriggerSaved} are
 * not sent.
 *
 * <p>Thread-safe if the link is (it is): called on whichever thread publishes.
 */
public final class LauncherEvents implements Consumer<RuntimeEvent> {
    /** The shortest time between two messages for a block loop's in-memory snapshots. */
    static final Duration MEMORY_REPORTS = Duration.ofSeconds(1);

    private final LauncherLink link;
    private final IntSupplier currentRank;
    private final LongSupplier nanoTime;
    /** In-memory snapshots not sent yet (null: none); guarded by this. */
    private SaveReport memory;
    /** When the last message for in-memory snapshots went, in {@link #nanoTime}'s terms; guarded by this. */
    private long memorySentAt;
    private boolean memorySent;

    /**
     * @param link where the messages go
     * @param currentRank this process's rank in its current group (after a shrink, the shrunk group's): one
     *     {@code recovered} message per recovery is sent, by the rank that reads 0 here
     */
    public LauncherEvents(LauncherLink link, IntSupplier currentRank) {
        this(link, currentRank, System::nanoTime);
    }

    /** As above, with the clock that spaces the messages for in-memory snapshots (tests). */
    LauncherEvents(LauncherLink link, IntSupplier currentRank, LongSupplier nanoTime) {
        this.link = Objects.requireNonNull(link, "link");
        this.currentRank = Objects.requireNonNull(currentRank, "currentRank");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public void accept(RuntimeEvent event) {
        if (event instanceof RuntimeEvent.Saved e && SavedLevel.MEMORY.equals(SavedLevel.of(e))) {
            memorySaved(SaveReport.of(e.iteration(), SavedLevel.MEMORY, e.blocking(), e.bytes()));
            return;
        }
        if (event instanceof RuntimeEvent.Snapshotted || event instanceof RuntimeEvent.Handshake || event instanceof RuntimeEvent.FailureSaved
                || event instanceof RuntimeEvent.TriggerSaved) {
            return; // the launcher has no use for them; they must not flush the in-memory saves pending either
        }
        sendPendingSaves(event instanceof RuntimeEvent.IterationStarted);
        if (event instanceof RuntimeEvent.IterationStarted e) {
            link.iteration(e.iteration());
        } else if (event instanceof RuntimeEvent.Saved e) {
            link.saved(SaveReport.of(e.iteration(), SavedLevel.of(e), e.blocking(), e.bytes()));
        } else if (event instanceof RuntimeEvent.Restored e) {
            if (e.kind() == StateKind.LOCAL) {
                link.event("restored-local", Map.of("iteration", e.iteration()));
            } else {
                link.restored(e.iteration());
            }
        } else if (event instanceof RuntimeEvent.SettingsChanged e) {
            link.event("settings-changed", fields("saved", e.savedFingerprint(), "current", e.currentFingerprint()));
        } else if (event instanceof RuntimeEvent.AlreadyComplete e) {
            link.event("already-complete", Map.of("folder", e.folder()));
        } else if (event instanceof RuntimeEvent.Completed e) {
            link.event("complete", Map.of("iteration", e.iteration()));
        } else if (event instanceof RuntimeEvent.FailureDetected e) {
            link.detected(sorted(e.worldRanks()));
        } else if (event instanceof RuntimeEvent.TriggerFired e) {
            link.event("trigger", fields("cause", e.cause(), "deadline", e.deadline()));
        } else if (event instanceof RuntimeEvent.OnlineProtection) {
            link.protection(true);
        } else if (event instanceof RuntimeEvent.GroupShrunk e) {
            if (currentRank.getAsInt() == 0) {
                link.shrunk(sorted(e.lostWorldRanks()), e.newSize(), e.took());
            }
        } else if (event instanceof RuntimeEvent.RecoveredOnline e) {
            if (currentRank.getAsInt() == 0) {
                link.recovered(new RecoveryReport(sorted(e.lostWorldRanks()), e.iteration(),
                        e.source() == RuntimeEvent.RecoverySource.MEMORY ? RecoveryReport.Source.MEMORY : RecoveryReport.Source.DISK,
                        e.sparesUsed(), e.detect(), e.shrink(), e.restore(), e.rebalance()));
            }
        } else if (event instanceof RuntimeEvent.RecoveryImpossible e) {
            link.recoveryImpossible(sorted(e.lostWorldRanks()), e.reason());
        } else if (event instanceof RuntimeEvent.Planned e) {
            link.plan(e.lastIteration());
        } else if (event instanceof RuntimeEvent.ProtectorMoved e) {
            link.event("site-protector-moved", fields("site", e.site(), "from", e.from(), "to", e.to(), "table_version", e.tableVersion(),
                    "asked", e.askedAt(), "series", e.series(), "iteration", e.iteration()));
        } else if (event instanceof RuntimeEvent.Reported e) {
            link.event(e.type(), e.fields());
        } else if (event instanceof RuntimeEvent.ApplicationFailed e) {
            link.error(e.error());
        }
    }

    /** Sends the in-memory snapshots pending, if any, at once. */
    void flush() {
        sendPendingSaves(false);
    }

    /** Adds an in-memory snapshot to those pending, and sends them if the last message is long enough ago. */
    private synchronized void memorySaved(SaveReport save) {
        memory = memory == null ? save : memory.plus(save);
        sendPendingSaves(true);
    }

    /**
     * Sends the in-memory snapshots pending, if any: at once, or with {@code spaced} only when the last such message
     * went {@link #MEMORY_REPORTS} ago or more (or none went yet).
     */
    private synchronized void sendPendingSaves(boolean spaced) {
        if (memory == null) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (spaced && memorySent && now - memorySentAt < MEMORY_REPORTS.toNanos()) {
            return;
        }
        link.saved(memory);
        memory = null;
        memorySent = true;
        memorySentAt = now;
    }

    private static List<Integer> sorted(Set<Integer> ranks) {
        return ranks.stream().sorted().toList();
    }

    private static double seconds(Duration d) {
        return d == null ? 0.0 : d.toNanos() / 1e9;
    }

    /** Fields in the order given (for a readable timeline): name, value, name, value, … */
    private static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }
}
