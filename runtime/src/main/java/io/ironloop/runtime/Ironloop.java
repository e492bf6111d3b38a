package io.ironloop.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.config.Parameters;
import io.ironloop.core.RestoredState;
import io.ironloop.core.Snapshotable;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.ProcessGroup;
import java.util.Map;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.internal.state.GlobalState;
import io.ironloop.runtime.internal.state.LocalState;
import io.ironloop.runtime.internal.state.Shadow;
import io.ironloop.runtime.recovery.RestartRecovery;
import io.ironloop.runtime.tasks.WorkloadScheduler;

/**
 * DeLIA on the JVM: the fault-tolerance runtime of one rank of an iterative application.
 *
 * <p>A fault-tolerant loop (DeLIA's Listing 8):
 * <pre>{@code
 * try (Ironloop ft = Ironloop.builder().settings(appSettings).start()) {   // DeLIA_Init + DeLIA_CanWork
 *     ft.registerGlobal("global", globalData);                              // DeLIA_SetGlobalData
 *     ft.registerLocal("local", localData);                                 // DeLIA_SetLocalData
 *     if (ft.canRecoverGlobal()) {                                          // collective
 *         ft.readGlobal();                                                  // DeLIA_ReadGlobalData
 *     }
 *     ft.startHeartbeatMonitoring();
 *     for (long i = ft.iteration(); i < iterations; i++) {                  // DeLIA_getCurrentGlobalIteration
 *         compute(localData);
 *         ft.publishLocal();                                                // what a trigger would save
 *         ft.group().allreduce(...);
 *         ft.saveGlobal();                                                  // DeLIA_SaveGlobalData, gated
 *     }
 *     ft.complete(resultLine);
 * }                                                                         // DeLIA_Finalize
 * }</pre>
 *
 * <p>State: <em>global</em> state is identical on every rank and saved by two ranks, rank 0 as series
 * {@value #GLOBAL_SERIES} of the store in {@code FT_FOLDER} and rank {@code size / 2} as a copy
 * ({@code global-copy}); on recovery the ranks agree on the newest line intact in either copy, and its holder
 * hands the verified files to the others. <em>Local</em> state is per rank, series {@code rank-NNNNN}. The
 * application's <em>settings</em> are fingerprinted into every line: a line made under other settings is
 * never restored (recovery starts fresh and keeps the old lines). Registered objects are copied into
 * published copies at {@link #publishLocal()} and {@link #saveGlobal()}; saves and triggers write those
 * copies, never arrays still being modified.
 *
 * <p>Triggers: with {@code TRIGGER_SIGNAL} (on unless a parameter file sets it false), SIGTERM/SIGINT (and configured SIGUSR1/2) make the rank save
 * its published local state (and the holders of the global state their published copy) durably, then exit with
 * 128 + signal number. With a {@code PREEMPTION_NOTICE} source, a notice makes the same save before its
 * deadline. After {@link #startHeartbeatMonitoring()}, a member declared failed makes every survivor save
 * its published local state at once; the application's next group operation then throws
 * {@link io.ironloop.group.ProcessFailedException} and the job ends, to be restarted by its supervisor.
 *
 * <p>Events: everything the runtime reports is one typed stream ({@link RuntimeEvent}); subscribe with
 * {@link IronloopBuilder#subscribe}. The launcher subscribes by itself when the process runs under {@code ironloop run}
 * ({@link io.ironloop.runtime.event.EventSubscriberProvider}).
 *
 * <p>The work is done by collaborators with one job each: {@code GlobalState} and {@code LocalState} (registered
 * objects, published copies, saves), {@code TriggerReactions} (signals, notices, heartbeat failures),
 * {@link RestartRecovery} (the restart path) and {@code JobCompletion} (the completion record).
 *
 * <p>Threading: one application thread calls the methods; triggers run on their own threads and
 * synchronise with it. Collective methods must be called by every rank in the same order.
 */
public final class Ironloop implements AutoCloseable {
    /** The series of the global state that rank 0 writes (rank {@code size / 2} writes a copy). */
    public static final String GLOBAL_SERIES = GlobalState.SERIES;
    /** The series of the copy of the global state that rank {@code size / 2} writes. */
    public static final String GLOBAL_COPY_SERIES = GlobalState.COPY_SERIES;
    private static final Logger LOG = LoggerFactory.getLogger(Ironloop.class);
    static final String SETTINGS_ENTRY = "ironloop.settings";

    private final RuntimeParts parts;
    private final GlobalState global;
    private final LocalState local;
    private final RestartRecovery recovery;
    private boolean closed;

    Ironloop(RuntimeParts parts) {
        this.parts = parts;
        this.global = parts.global();
        this.local = parts.local();
        this.recovery = parts.recovery();
    }

    /** A builder; {@link IronloopBuilder#start()} joins the group. */
    public static IronloopBuilder builder() {
        return new IronloopBuilder();
    }

    /**
     * Starts the runtime with the parameter file the launcher passes ({@code IRONLOOP_PARAMS}), or defaults
     * and {@code IRONLOOP_<KEY>} variables when there is none.
     *
     * @param settings the application's settings (DeLIA's settings file), fingerprinted into every line
     * @throws io.ironloop.ConfigurationException for an unknown key, a bad value or an inconsistent configuration
     */
    public static Ironloop start(Map<String, ?> settings) {
        return builder().settings(settings).start();
    }

    // ----------------------------------------------------------------------------------------- identity

    /** This rank's process group. Failures surface as {@link io.ironloop.group.ProcessFailedException}. */
    public ProcessGroup group() {
        return parts.group();
    }

    /** This process's rank. */
    public int rank() {
        return parts.group().rank();
    }

    /** The number of ranks. */
    public int size() {
        return parts.group().size();
    }

    /** The parameters in effect. */
    public Parameters parameters() {
        return parts.parameters();
    }

    /** The configured workload scheduler ({@code WORKLOAD_SCHEDULER}). */
    public WorkloadScheduler scheduler() {
        return parts.parameters().get(RuntimeKeys.WORKLOAD_SCHEDULER);
    }

    /** The checkpoint folder ({@code FT_FOLDER}), absolute. */
    public Path folder() {
        return parts.folder();
    }

    /**
     * Declares the last iteration number the application will report. Optional: under {@code ironloop run} it
     * lets the launcher refuse at once a fault injected past the end ({@code --fail RANK@ITER}); faults
     * strike without it.
     *
     * @param lastIteration the last iteration number
     */
    public void plan(long lastIteration) {
        parts.events().publish(new RuntimeEvent.Planned(lastIteration));
    }

    /**
     * Publishes an event of the application's own ({@link RuntimeEvent.Reported}) to this rank's subscribers,
     * so that it appears in the launcher's timeline under {@code ironloop run}.
     *
     * @param type the event type (not blank)
     * @param fields its fields: strings, numbers, booleans, lists and maps of those; not {@code type}
     * @throws IllegalArgumentException if the type is blank or the fields contain {@code type}
     */
    public void report(String type, Map<String, ?> fields) {
        parts.events().publish(new RuntimeEvent.Reported(type, new java.util.LinkedHashMap<>(fields)));
    }

    /**
     * Where this rank serves its metrics in Prometheus' format (path {@code /metrics}), if {@code METRICS_PORT} is
     * set: with {@code METRICS_PORT} 0, the port the kernel chose.
     */
    public Optional<java.net.InetSocketAddress> metricsAddress() {
        return parts.metrics().address();
    }

    /**
     * The completion record of an earlier run over the same folder with the same settings, if it finished
     * (and {@code FRESH} is not set). The application then reports it instead of computing again.
     */
    public Optional<Completion> completion() {
        return parts.completion();
    }

    // ------------------------------------------------------------------------------------- registration

    /** Registers global state (same on every rank): a primitive array. DeLIA's {@code SetGlobalData}. */
    public void registerGlobal(String name, Object primitiveArray) {
        global.register(checkNew(Shadow.ofArray(name, primitiveArray)));
    }

    /**
     * Registers global state held by an object (DeLIA's {@code IDataGlobal}). Its {@link Snapshotable#swap()} is
     * called once the line holding its newest {@code save} is committed.
     */
    public void registerGlobal(String name, Snapshotable entity) {
        global.register(checkNew(Shadow.ofEntity(name, entity)));
    }

    /** Registers this rank's local state: a primitive array. DeLIA's {@code SetLocalData}. */
    public void registerLocal(String name, Object primitiveArray) {
        local.register(checkNew(Shadow.ofArray(name, primitiveArray)));
    }

    /**
     * Registers local state held by an object (DeLIA's {@code IDataLocal}). Its {@link Snapshotable#swap()} is
     * called once the line holding its newest {@code save} is committed.
     */
    public void registerLocal(String name, Snapshotable entity) {
        local.register(checkNew(Shadow.ofEntity(name, entity)));
    }

    /**
     * Stops protecting {@code name} (global or local); later lines no longer hold it.
     *
     * @return whether it was registered
     */
    public boolean unregister(String name) {
        return global.unregister(name) || local.unregister(name);
    }

    private Shadow checkNew(Shadow shadow) {
        ensureOpen();
        if (global.contains(shadow.name()) || local.contains(shadow.name()) || shadow.name().equals(SETTINGS_ENTRY)) {
            throw new IllegalArgumentException("'" + shadow.name() + "' is already registered");
        }
        return shadow;
    }

    // ------------------------------------------------------------------------------------------- global

    /**
     * Whether a global checkpoint made under the current settings exists (DeLIA's
     * {@code CanRecoverGlobalCheckpointing}). Collective: the holders of the global lines say and the ranks
     * agree ({@link ProcessGroup#agree}). A checkpoint under other settings gives false, with both fingerprints
     * logged; its lines are kept.
     */
    public boolean canRecoverGlobal() {
        ensureOpen();
        return recovery.canRecoverGlobal();
    }

    /**
     * Restores the global state into the registered objects (DeLIA's {@code ReadGlobalData}). Collective: the
     * ranks agree on the newest line intact in either copy of the global state (falling back past damage),
     * and its holder hands its verified files to the others, who verify them again while restoring.
     *
     * @return the iteration restored, also {@link #iteration()} from now on
     * @throws io.ironloop.core.NoIntactCheckpointException if no line is intact (on a holder; an
     *     {@link io.ironloop.IronloopException} on the others)
     */
    public long readGlobal() {
        ensureOpen();
        return recovery.readGlobal();
    }

    /** The global iteration: how many times {@link #saveGlobal()} was called, counting restored ones. */
    public long iteration() {
        return global.iteration();
    }

    /**
     * Ends a global iteration (DeLIA's {@code SaveGlobalData}): counts it and, when the frequency gates
     * ({@code CHECKPOINTING_GLOBAL_ITERATION}, {@code CHECKPOINTING_TIME_GLOBAL}) pass, the holders of the global
     * state (rank 0 and rank {@code size / 2}) save it; the copy happens now, the write in the background. Call
     * it on every rank when the global state is consistent (after the reduction). Reports the next iteration to
     * the launcher, where {@code --fail RANK@ITER} faults strike.
     *
     * @return whether this call saved global state on this rank (false on ranks that hold no copy)
     */
    public boolean saveGlobal() {
        ensureOpen();
        GlobalState.Boundary b = global.endIteration(local.isPerRankState());
        if (local.isPerRankState()) {
            local.publish(b.iteration(), b.due()); // at the boundary: the state after these iterations, as the global line holds
        }
        parts.events().publish(new RuntimeEvent.IterationStarted(b.iteration()));
        return b.saved();
    }

    /**
     * The common start of a loop, in one call: restores the global state when a checkpoint made under these
     * settings exists ({@link #canRecoverGlobal()}, then {@link #readGlobal()}), and starts heartbeat monitoring
     * when the parameters configure it ({@link #startHeartbeatMonitoring()}). Collective. Per-rank state that must
     * be restored at the same line is restored with {@link #canRecoverLocal()} and {@link #readLocal()} after it.
     *
     * @return the iteration to start at: the one restored, or 0
     */
    public long resume() {
        if (canRecoverGlobal()) {
            readGlobal();
        }
        startHeartbeatMonitoring();
        return iteration();
    }

    /**
     * The common end of an iteration, in one call: publishes the local state for triggers ({@link #publishLocal()},
     * unless it is per-rank state, which {@link #saveGlobal()} publishes itself) and ends the global iteration
     * ({@link #saveGlobal()}: saved when the frequency gates pass). Call it on every rank when both are consistent.
     *
     * @return whether the global state was saved on this rank
     */
    public boolean endIteration() {
        ensureOpen();
        if (!local.isPerRankState()) {
            local.publishAtTaskBoundary(iteration());
        }
        return saveGlobal();
    }

    // -------------------------------------------------------------------------------------------- local

    /**
     * Whether per-rank state can be restored consistently with the global state (DeLIA's can-recover-local).
     * Collective, call it after {@link #readGlobal()}: the ranks negotiate the newest iteration, no later than
     * {@link #iteration()}, at which every rank and the global series have a line; same answer everywhere.
     * From now on local state is per-rank state: {@link #saveGlobal()} publishes it at the iteration boundary
     * and saves it with every global line, and {@link #publishLocal()} / {@link #saveLocal()} are refused.
     *
     * @return true when {@link #readLocal()} will restore that line; false when per-rank state starts over
     *     with the global state (nothing restored, or {@code FRESH})
     * @throws IncompatibleRestartException on every rank, if lines were made by a job of another size
     * @throws InconsistentRecoveryException on every rank, if some rank has no line at the global iteration
     */
    public boolean canRecoverLocal() {
        ensureOpen();
        local.becomePerRankState();
        return recovery.canRecoverLocal(iteration());
    }

    /**
     * Restores every rank's per-rank state at the recovery line {@link #canRecoverLocal()} agreed on. When
     * that line is older than the global state restored (a rank died before its newest line was durable),
     * the global state is first restored again at that line, with a warning. Collective.
     *
     * @return the iteration restored, also {@link #iteration()} from now on
     * @throws IllegalStateException if {@link #canRecoverLocal()} did not return true
     * @throws io.ironloop.IronloopException if a rank cannot restore its line (on every rank, naming how many failed)
     */
    public long readLocal() {
        ensureOpen();
        return recovery.readLocal(iteration());
    }

    /**
     * Reads the newest intact local lines of the ranks of the previous run, made under the current settings,
     * as new arrays, without touching registered objects. The old ranks' series are shared out over this
     * job's ranks (old rank q goes to rank q mod size), so that after an allgather every rank holds every
     * record, whatever the number of ranks now and then — DeLIA's recovery for work stealing, where any rank
     * may have run any task. Needs {@code FT_FOLDER} to be shared by the ranks. Call it before any local save
     * of this run. A series with no intact line is left out with a warning (its tasks are simply run again).
     */
    public List<RestoredState> readLocalRecords() {
        ensureOpen();
        return recovery.localRecords();
    }

    /**
     * Publishes the registered local state: copies it into the copy that triggers save. Call it at task
     * boundaries, when the local state is consistent.
     */
    public void publishLocal() {
        ensureOpen();
        local.publishAtTaskBoundary(iteration());
    }

    /**
     * Publishes the local state and, when the local gates ({@code CHECKPOINTING_TIME_LOCAL},
     * {@code CHECKPOINTING_TIME_DIFF_LOCAL}) pass, saves it in the background. With neither gate set, local
     * state is saved only by triggers.
     *
     * @return whether a save was started
     */
    public boolean saveLocal() {
        publishLocal();
        return local.saveIfDue();
    }

    // ----------------------------------------------------------------------------------------- triggers

    /**
     * Starts heartbeat monitoring (DeLIA's {@code HeartbeatMonitoring_Init}): from now on, a member declared
     * failed makes this rank save its published local state at once. The detector itself is configured by
     * {@code TRIGGER_HEARTBEAT_MONITORING} ({@code SLEEP_THREAD_TIME}, {@code TIME_MAX_WAIT}, {@code TYPE}).
     *
     * @return whether monitoring is on: false when the parameters have no {@code TRIGGER_HEARTBEAT_MONITORING}
     */
    public boolean startHeartbeatMonitoring() {
        ensureOpen();
        if (!parts.parameters().isSet(GroupKeys.TRIGGER_HEARTBEAT_MONITORING)) {
            LOG.info("TRIGGER_HEARTBEAT_MONITORING is absent from the parameters: failures of other ranks trigger no local save");
            return false;
        }
        parts.reactions().startMonitoring();
        return true;
    }

    /** Stops heartbeat monitoring (DeLIA's {@code HeartbeatMonitoring_Finalize}). */
    public void stopHeartbeatMonitoring() {
        parts.reactions().stopMonitoring();
    }

    // ------------------------------------------------------------------------------------------- finish

    /**
     * Marks the run complete: waits until the global state is durable, then rank 0 writes the completion
     * record. Collective.
     *
     * @param result the application's result line, reported by a later run over the same folder
     */
    public void complete(String result) {
        ensureOpen();
        Objects.requireNonNull(result, "result");
        global.awaitDurable();
        parts.completionRecord().write(iteration(), result);
        parts.events().publish(new RuntimeEvent.Completed(iteration()));
    }

    /**
     * Finishes (DeLIA's {@code Finalize}): stops monitoring, waits for a trigger's save and for saves in
     * flight, closes the engines and leaves the group.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        parts.close();
    }

    // ------------------------------------------------------------------------------------------ helpers

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this Ironloop runtime is closed");
        }
    }
}
