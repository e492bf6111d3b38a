package io.ironloop.runtime.internal.state;

import java.util.List;
import java.util.function.LongSupplier;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;

/**
 * DeLIA's local state of one rank: the registered objects, their published copy (what a trigger saves) and
 * the engine of this rank's series {@code rank-NNNNN}.
 *
 * <p>Thread-safety: the application thread and trigger threads call it; every method holds the state's
 * lock, which a durable save keeps until the line is durable, so {@link #publish} waits for a trigger's save.
 */
public final class LocalState {
    private final Object lock = new Object();
    private final Registry registry;
    private final CheckpointEngine engine;
    private final CheckpointPolicy gates;
    private final LongSupplier clock;
    private long publishedVersion;
    private long publishedIteration;
    private long persistedVersion;
    private volatile boolean perRankState;

    public LocalState(CheckpointEngine engine, CheckpointPolicy gates, LongSupplier clock) {
        this.engine = engine;
        this.registry = new Registry(engine, Scope.LOCAL);
        this.gates = gates;
        this.clock = clock;
    }

    /** Whether {@code name} is registered here. */
    public boolean contains(String name) {
        synchronized (lock) {
            return registry.contains(name);
        }
    }

    /** Registers a piece of local state. */
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

    /**
     * Makes local state per-rank state (a subdomain, a per-rank counter): from now on it is published at iteration
     * boundaries only, and saved with every global line.
     */
    public void becomePerRankState() {
        perRankState = true;
    }

    /** Whether local state is per-rank state ({@link #becomePerRankState()}). */
    public boolean isPerRankState() {
        return perRankState;
    }

    /**
     * Publishes at a task boundary inside iteration {@code iteration} ({@code publishLocal()}).
     *
     * @throws IllegalStateException if local state is per-rank state: a copy from inside an iteration would be
     *     restored and the iteration then redone
     */
    public void publishAtTaskBoundary(long iteration) {
        if (perRankState) {
            throw new IllegalStateException("local state is per-rank state here (canRecoverLocal() was called): saveGlobal()"
                    + " publishes and saves it at the iteration boundary; a copy from inside an iteration would be restored and"
                    + " the iteration then redone. Remove publishLocal()/saveLocal(), or keep per-task records (readLocalRecords)");
        }
        publish(iteration, false);
    }

    /** Copies the registered objects into the published copy, as the state at {@code iteration}; saves it when asked. */
    public void publish(long iteration, boolean persist) {
        synchronized (lock) {
            registry.publish();
            publishedVersion++;
            publishedIteration = iteration;
            if (persist) {
                persist(false);
            }
        }
    }

    /**
     * Saves the published copy in the background when the local gates pass ({@code saveLocal()}).
     *
     * @return whether a save was started
     */
    public boolean saveIfDue() {
        synchronized (lock) {
            long t = clock.getAsLong();
            if (!gates.due(t)) {
                return false;
            }
            persist(false);
            gates.taken(t, engine.lastCost());
            return true;
        }
    }

    /**
     * Saves the published copy unless it is already saved; waits for durability when asked. A durable save (a
     * trigger's) writes the published copy in place, without a copy into the engine's staging: it is a stable
     * snapshot, and the next {@link #publish} waits for the lock, held until the line is durable.
     */
    public void persist(boolean durable) {
        synchronized (lock) {
            if (persistedVersion != publishedVersion) {
                if (durable) {
                    engine.checkpointInPlace(publishedIteration);
                } else {
                    engine.checkpoint(publishedIteration);
                }
                persistedVersion = publishedVersion;
            }
            if (durable) {
                engine.awaitDurable();
            }
        }
    }

    /** The iteration of the published copy. */
    public long publishedIteration() {
        synchronized (lock) {
            return publishedIteration;
        }
    }

    /** The committed lines of this rank's series, oldest first. */
    public List<LineInfo> lines() {
        return engine.lines();
    }

    /** The fingerprint of the current settings, as every line of this rank carries it. */
    public String settingsFingerprint() {
        return engine.settingsFingerprint();
    }

    /**
     * Restores this rank's line at {@code iteration} into the registered objects, from a copy of its files.
     *
     * @throws io.ironloop.IronloopException if there is no committed line at that iteration or it cannot be read
     */
    public void restoreAt(Store store, long iteration, String settingsName, byte[] settings) {
        synchronized (lock) {
            LocalRecovery.restoreAt(store, engine.config(), engine.lines(), iteration, Scope.LOCAL, registry.shadows(), settingsName,
                    settings);
            publishedIteration = iteration;
        }
    }

    /** Closes the engine (waiting for writes in flight). */
    public void closeEngine() {
        synchronized (lock) {
            engine.close();
        }
    }
}
