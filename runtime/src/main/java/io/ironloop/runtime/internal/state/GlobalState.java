package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;

/**
 * DeLIA's global state of one rank: the registered objects (the same on every rank), their published copy,
 * the global iteration count, and — on the two ranks that hold a copy — the engine that saves it.
 *
 * <p>Two ranks hold the global lines, so that losing one rank and its disk loses none: rank 0 writes series
 * {@value #SERIES}, and rank {@code size / 2} (waLBerla's pairwise partner of rank 0) writes the same state
 * into series {@value #COPY_SERIES}; each evaluates the frequency gates itself, and recovery agrees on the
 * newest line intact in either ({@code io.ironloop.runtime.recovery.RestartRecovery}). A job of one rank has
 * one copy.
 *
 * <p>Thread-safety: the application thread and a trigger's thread call it; every method holds the state's
 * lock, which a durable save keeps until the line is durable, so a publish waits for a trigger's save.
 */
public final class GlobalState {
    /** The series rank 0 writes. */
    public static final String SERIES = "global";
    /** The series rank {@code size / 2} writes: the redundant copy of {@link #SERIES}. */
    public static final String COPY_SERIES = "global-copy";

    private final Object lock = new Object();
    private final Registry registry;
    private final CheckpointEngine engine;
    private final CheckpointPolicy gates;
    private final LongSupplier clock;
    private final boolean publishEveryCall;
    private long iteration;
    private long published = -1;
    private long persisted = -1;

    /**
     * @param engine the engine of this rank's copy, or null on a rank that holds none
     * @param publishEveryCall whether every {@link #endIteration} publishes (a trigger may save at any time)
     */
    public GlobalState(CheckpointEngine engine, CheckpointPolicy gates, LongSupplier clock, boolean publishEveryCall) {
        this.engine = engine;
        this.registry = new Registry(engine, Scope.GLOBAL);
        this.gates = gates;
        this.clock = clock;
        this.publishEveryCall = publishEveryCall;
    }

    /** The series {@code rank} of {@code size} writes the global state into, if it holds a copy. */
    public static Optional<String> seriesOf(int rank, int size) {
        if (rank == 0) {
            return Optional.of(SERIES);
        }
        return rank == copyHolder(size) ? Optional.of(COPY_SERIES) : Optional.empty();
    }

    /** The rank that holds the copy: rank 0's pairwise partner, or -1 in a job of one rank. */
    public static int copyHolder(int size) {
        return size > 1 ? size / 2 : -1;
    }

    /** Whether this rank writes a copy of the global state. */
    public boolean holdsCopy() {
        return engine != null;
    }

    /** Whether {@code name} is registered here. */
    public boolean contains(String name) {
        synchronized (lock) {
            return registry.contains(name);
        }
    }

    /** Registers a piece of global state. */
    public void register(Shadow shadow) {
        synchronized (lock) {
            registry.register(shadow);
        }
    }

    /** Stops protecting {@code name}; returns whether it was registered. */
    public boolean unregister(String name) {
        synchronized (lock) {
            return registry.unregister(name);
        }
    }

    /** The global iteration: completed iterations, restored ones included. */
    public long iteration() {
        synchronized (lock) {
            return iteration;
        }
    }

    /** What {@link #endIteration} did: the iteration just ended and whether the gates said "save". */
    public record Boundary(long iteration, boolean due, boolean saved) {
    }

    /**
     * Ends an iteration: counts it and, when this rank's gates pass, saves (on a holder: copies now, writes in
     * the background). With {@code gateEveryRank} (per-rank state is saved with every global line) the gates
     * are evaluated on every rank, holder or not.
     */
    public Boundary endIteration(boolean gateEveryRank) {
        synchronized (lock) {
            long now = ++iteration;
            long t = clock.getAsLong();
            boolean due = (engine != null || gateEveryRank) && gates.due(t);
            if (engine == null) {
                if (due) {
                    gates.taken(t, Duration.ZERO); // a rank without a copy counts its per-rank save here
                }
                return new Boundary(now, due, false);
            }
            if (due || publishEveryCall) {
                registry.publish();
                published = now;
            }
            if (due) {
                engine.checkpoint(now);
                gates.taken(t, engine.lastCost());
                persisted = now;
            }
            return new Boundary(now, due, due);
        }
    }

    /**
     * Saves the published state durably unless it is already saved (a trigger's save), in place: the
     * published copy is a stable snapshot while the lock is held.
     */
    public void persistDurably() {
        if (engine == null) {
            return;
        }
        synchronized (lock) {
            if (published > persisted) {
                engine.checkpointInPlace(published);
                persisted = published;
            }
            engine.awaitDurable();
        }
    }

    /** Waits until every save of this rank's copy is durable. */
    public void awaitDurable() {
        if (engine != null) {
            synchronized (lock) {
                engine.awaitDurable();
            }
        }
    }

    /** The committed lines of this rank's copy, oldest first (none on a rank without a copy). */
    public List<LineInfo> lines() {
        return engine == null ? List.of() : engine.lines();
    }

    /**
     * Restores this rank's newest intact line of its copy into the registered objects, falling back past
     * damage (the engine verifies every checksum).
     *
     * @return the line restored; empty on a rank without a copy or when its copy has no line
     */
    public Optional<LineInfo> restoreOwnNewest() {
        if (engine == null) {
            return Optional.empty();
        }
        synchronized (lock) {
            Optional<LineInfo> line = engine.restore();
            line.ifPresent(l -> registry.shadows().forEach(Shadow::apply));
            return line;
        }
    }

    /**
     * Restores the one line packed in {@code files} ({@link SeriesFiles#pack}) into the registered objects,
     * verifying every checksum.
     *
     * @param config the engine configuration of the series the line belongs to
     * @throws IOException if the packed files are malformed
     */
    public LineInfo restoreCopy(byte[] files, EngineConfig config, String settingsName, byte[] settings) throws IOException {
        synchronized (lock) {
            return LocalRecovery.restoreCopy(files, config, Scope.GLOBAL, registry.shadows(), settingsName, settings,
                    () -> new io.ironloop.IronloopException("the global line received holds no line"));
        }
    }

    /** Packs the files of {@code line} of this rank's copy, to hand to the other ranks. */
    public byte[] pack(Store store, LineInfo line) throws IOException {
        return SeriesFiles.pack(store, SeriesFiles.filesOf(line));
    }

    /** Resumes the count at a restored line's iteration: that state is published and saved already. */
    public void resumeAt(long restored) {
        synchronized (lock) {
            iteration = restored;
            published = restored;
            persisted = restored;
        }
    }

    /** Closes this rank's engine (waiting for writes in flight). */
    public void closeEngine() {
        if (engine != null) {
            synchronized (lock) {
                engine.close();
            }
        }
    }
}
