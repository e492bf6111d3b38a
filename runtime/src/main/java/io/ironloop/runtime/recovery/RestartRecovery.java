package io.ironloop.runtime.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.IronloopException;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.NoIntactCheckpointException;
import io.ironloop.core.RestoredState;
import io.ironloop.core.Store;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.state.GlobalState;
import io.ironloop.runtime.internal.state.LocalRecovery;
import io.ironloop.runtime.internal.state.LocalState;

/**
 * The restart path: a job started again over its checkpoint folder finds where it was and resumes there.
 * Every step is collective and reaches the same verdict on every rank:
 * <ol>
 *   <li><b>discover</b> — each rank holding a copy of the global state (rank 0: series
 *       {@value GlobalState#SERIES}; rank {@code size / 2}: {@value GlobalState#COPY_SERIES}) looks at its
 *       committed lines made under the current settings;</li>
 *   <li><b>verify</b> — each holder restores its newest intact line (the engine checks every checksum and
 *       falls back past damage);</li>
 *   <li><b>agree</b> — {@link ProcessGroup#agree} (fault-tolerant: the minimum of the proposals on every
 *       survivor) picks the newest line intact in either copy, then the lowest holder of it;</li>
 *   <li><b>restore</b> — that holder hands the line's files to the others, who restore them through the
 *       same engine code (every checksum checked again), so no shared file system is needed;</li>
 *   <li><b>resume</b> — the global iteration continues from the line; per-rank state is then negotiated
 *       against it ({@link #canRecoverLocal}) and restored at one line for every rank.</li>
 * </ol>
 * So a restart whose rank-0 series was lost or damaged restores from the copy, bit-identically.
 *
 * <p>Not thread-safe: the application thread calls it, collectively, in the same order on every rank.
 */
public final class RestartRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(RestartRecovery.class);
    /** A proposal that {@link ProcessGroup#agree} (a minimum) passes over: "I have nothing". */
    private static final long NOTHING = Long.MAX_VALUE;
    private static final byte OK = 0;
    private static final byte FAILED = 1;

    private final ProcessGroup group;
    private final Store store;
    private final Path folder;
    private final Options options;
    private final GlobalState global;
    private final LocalState local;
    private final RuntimeEvents events;
    private final Function<String, EngineConfig> configOfSeries;
    private final String settingsEntry;
    private final byte[] settings;
    /** The per-rank recovery line {@link #canRecoverLocal} agreed on, once it was called. */
    private OptionalLong localLine = OptionalLong.empty();
    private boolean localNegotiated;

    /**
     * What a restart may use.
     *
     * @param fresh start over whatever the folder holds ({@code FRESH})
     * @param ignoreSettings restore lines made under other settings ({@code IGNORE_SETTINGS})
     */
    public record Options(boolean fresh, boolean ignoreSettings) {
    }

    /**
     * @param configOfSeries the engine configuration of this rank for a series, to restore a received line
     * @param settingsEntry the name of the settings entry every line carries
     * @param settings that entry's bytes now
     */
    public RestartRecovery(ProcessGroup group, Store store, Path folder, Options options, GlobalState global, LocalState local,
            RuntimeEvents events, Function<String, EngineConfig> configOfSeries, String settingsEntry, byte[] settings) {
        this.group = group;
        this.store = store;
        this.folder = folder;
        this.options = options;
        this.global = global;
        this.local = local;
        this.events = events;
        this.configOfSeries = configOfSeries;
        this.settingsEntry = settingsEntry;
        this.settings = settings.clone();
    }

    // --------------------------------------------------------------------------------------- global state

    /**
     * Whether either copy of the global state has a newest line made under the current settings. A holder whose
     * newest line was made under other settings says no; when no copy is usable, the lowest such holder logs
     * both fingerprints and publishes {@link RuntimeEvent.SettingsChanged} (once per job); the lines are kept.
     * Collective.
     */
    public boolean canRecoverGlobal() {
        if (options.fresh()) {
            if (group.rank() == 0) {
                LOG.info("FRESH is set: starting over without reading the checkpoints in {}", folder);
            }
            return false;
        }
        List<LineInfo> lines = global.lines();
        Optional<LineInfo> newest = lines.isEmpty() ? Optional.empty() : Optional.of(lines.get(lines.size() - 1));
        String now = local.settingsFingerprint();
        boolean changed = newest.isPresent() && !newest.get().settingsFingerprint().equals(now) && !options.ignoreSettings();
        boolean usable = group.agree(newest.isPresent() && !changed ? 0 : 1) == 0;
        long reporter = group.agree(changed ? group.rank() : NOTHING);
        if (!usable && reporter == group.rank()) {
            LineInfo line = newest.orElseThrow();
            LOG.warn("the settings changed since the newest global checkpoint {}/{} (settings fingerprint {} there, {} now):"
                    + " starting fresh; the old lines are kept", folder, line.dataFile(), line.settingsFingerprint(), now);
            events.publish(new RuntimeEvent.SettingsChanged(line.settingsFingerprint(), now));
        }
        return usable;
    }

    /**
     * Restores the newest global line intact in either copy into the registered objects. Collective.
     *
     * @return the iteration restored
     * @throws NoIntactCheckpointException on a holder whose copy has lines but none intact, when no holder has one
     * @throws IronloopException when no copy has a line to restore, or the holder of the agreed line cannot send it
     */
    public long readGlobal() {
        if (localNegotiated) { // the per-rank recovery line was negotiated against the iteration before: it must see this one
            throw new IllegalStateException("call readGlobal() before canRecoverLocal(): per-rank state is restored at its iteration");
        }
        return restoreGlobal(OptionalLong.empty());
    }

    /** Restores the global line at {@code iteration} (an older one, the per-rank recovery line) from a holder of it. */
    private long readGlobalAt(long iteration) {
        return restoreGlobal(OptionalLong.of(iteration));
    }

    private long restoreGlobal(OptionalLong at) {
        long start = System.nanoTime();
        RuntimeException own = null;
        Optional<LineInfo> mine;
        if (at.isPresent()) {
            mine = global.lines().stream().filter(l -> l.iteration() == at.getAsLong()).reduce((a, b) -> b);
        } else {
            try {
                mine = global.restoreOwnNewest(); // verify: the engine checks every checksum, falls back past damage
            } catch (RuntimeException e) {
                LOG.warn("rank {}: its copy of the global state in {} has no line it can restore: {}", group.rank(), folder,
                        e.toString());
                own = e;
                mine = Optional.empty();
            }
        }
        long agreed = at.isPresent() ? at.getAsLong() : newestOf(mine);
        int source = sourceOf(mine, agreed);
        if (source < 0) {
            if (own != null) {
                throw own;
            }
            throw new IronloopException(at.isPresent() ? "no copy of the global state in " + folder + " holds iteration " + agreed
                    + " any more" : "no global checkpoint in " + folder + " to read: call readGlobal() only when canRecoverGlobal()"
                    + " is true");
        }
        LineInfo line = receive(source, mine, at.isEmpty() && mine.isPresent() && mine.get().iteration() == agreed);
        global.resumeAt(line.iteration());
        LOG.info("rank {}: global state restored at iteration {} from rank {}'s {}/{} in {} ms", group.rank(), line.iteration(),
                source, folder, line.dataFile(), (System.nanoTime() - start) / 1_000_000);
        events.publish(new RuntimeEvent.Restored(StateKind.GLOBAL, line.iteration()));
        return line.iteration();
    }

    /** Agrees on the newest iteration among the holders' lines; {@link #NOTHING} when none has one. */
    private long newestOf(Optional<LineInfo> mine) {
        long least = group.agree(mine.map(l -> -l.iteration()).orElse(NOTHING)); // the minimum of negations: the newest
        return least == NOTHING ? NOTHING : -least;
    }

    /** Agrees on the lowest rank holding a line at {@code iteration}; -1 when none does. */
    private int sourceOf(Optional<LineInfo> mine, long iteration) {
        if (iteration == NOTHING) {
            return -1;
        }
        long holder = group.agree(mine.filter(l -> l.iteration() == iteration).isPresent() ? group.rank() : NOTHING);
        return holder == NOTHING ? -1 : (int) holder;
    }

    /**
     * The source sends the line's files; every other rank restores from them (a holder that already restored
     * that very line from its own copy keeps it).
     */
    private LineInfo receive(int source, Optional<LineInfo> mine, boolean restoredAlready) {
        byte[] packet = null;
        RuntimeException failure = null;
        if (group.rank() == source) {
            try {
                packet = withStatus(OK, global.pack(store, mine.orElseThrow()));
            } catch (IOException | RuntimeException e) {
                failure = e instanceof RuntimeException r ? r : new IronloopException("cannot read " + folder + "/"
                        + mine.orElseThrow().dataFile() + ": " + e.getMessage(), e);
                packet = withStatus(FAILED, String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] received = group.broadcast(packet, source);
        if (failure != null) {
            throw failure;
        }
        if (received[0] != OK) {
            throw new IronloopException("rank " + source + " could not send its global line: "
                    + new String(received, 1, received.length - 1, StandardCharsets.UTF_8));
        }
        if (restoredAlready) {
            return mine.orElseThrow();
        }
        String series = GlobalState.seriesOf(source, group.size()).orElseThrow();
        try {
            return global.restoreCopy(Arrays.copyOfRange(received, 1, received.length), configOfSeries.apply(series),
                    settingsEntry, settings);
        } catch (IOException e) {
            throw new IronloopException("cannot restore the global line rank " + source + " sent: " + e.getMessage(), e);
        }
    }

    private static byte[] withStatus(byte status, byte[] body) {
        return ByteBuffer.allocate(1 + body.length).put(status).put(body).array();
    }

    // ------------------------------------------------------------------------------------- per-rank state

    /**
     * Negotiates the per-rank recovery line against the global iteration {@code resumed} (see
     * {@link LocalRecovery#negotiate}): the lines of both copies of the global state count. Collective.
     *
     * @return whether {@link #readLocal} will restore per-rank state at that line; false when it starts over
     */
    public boolean canRecoverLocal(long resumed) {
        localNegotiated = true;
        if (options.fresh()) {
            return false;
        }
        Optional<String> settingsNow = options.ignoreSettings() ? Optional.empty() : Optional.of(local.settingsFingerprint());
        localLine = LocalRecovery.negotiate(group, LocalRecovery.madeUnder(settingsNow, local.lines()),
                LocalRecovery.madeUnder(settingsNow, global.lines()), resumed, folder);
        return localLine.isPresent();
    }

    /**
     * Restores every rank's per-rank state at the line {@link #canRecoverLocal} agreed on; when that is older than
     * the global state restored, restores the global state again at that line first. Collective.
     *
     * @param resumed the global iteration restored so far
     * @throws IllegalStateException if {@link #canRecoverLocal} did not return true
     */
    public long readLocal(long resumed) {
        long at = localLine.orElseThrow(() -> new IllegalStateException("call readLocal() only when canRecoverLocal() returned true"));
        if (at < resumed) {
            LOG.warn("rank {}: not every rank has per-rank state at iteration {}: restoring the global state again at iteration {},"
                    + " the newest line every rank has", group.rank(), resumed, at);
            readGlobalAt(at);
        }
        LocalRecovery.onEveryRank(group, "restore their per-rank state at iteration " + at + " in " + folder,
                () -> local.restoreAt(store, at, settingsEntry, settings));
        events.publish(new RuntimeEvent.Restored(StateKind.LOCAL, at));
        return at;
    }

    /** The newest intact local lines of the previous run's ranks that fall to this rank (see {@link LocalRecovery#records}). */
    public List<RestoredState> localRecords() {
        return options.fresh() ? List.of() : LocalRecovery.records(store, folder, group, local.settingsFingerprint());
    }
}
