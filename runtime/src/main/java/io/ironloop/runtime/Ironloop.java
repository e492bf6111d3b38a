package io.ironloop.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.ConfigurationException;
import io.ironloop.IronloopException;
import io.ironloop.config.Parameters;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.RestoredState;
import io.ironloop.format.Scope;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.Store;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.group.launch.LauncherLink;
import io.ironloop.runtime.internal.state.CompletionFile;
import io.ironloop.runtime.internal.state.FrequencyGates;
import io.ironloop.runtime.internal.state.LocalRecovery;
import io.ironloop.runtime.internal.state.SeriesFiles;
import io.ironloop.runtime.internal.state.Shadow;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerAction;
import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerKeys;
import io.ironloop.runtime.trigger.TriggerListener;
import io.ironloop.runtime.trigger.TriggerOptions;
import io.ironloop.runtime.trigger.Triggers;

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
 * <p>State: <em>global</em> state is identical on every rank and saved by rank 0 alone, as series
 * {@value #GLOBAL_SERIES} of the store in {@code FT_FOLDER}; on recovery rank 0 reads it and hands the
 * verified files to the others. <em>Local</em> state is per rank, series {@code rank-NNNNN}. The
 * application's <em>settings</em> are fingerprinted into every line: a line made under other settings is
 * never restored (recovery starts fresh and keeps the old lines). Registered objects are copied into
 * published copies at {@link #publishLocal()} and {@link #saveGlobal()}; saves and triggers write those
 * copies, never arrays still being modified.
 *
 * <p>Triggers: with {@code TRIGGER_SIGNAL}, SIGTERM/SIGINT (and configured SIGUSR1/2) make the rank save
 * its published local state (and rank 0 its published global state) durably, then exit with
 * 128 + signal number. With a {@code PREEMPTION_NOTICE} source, a notice makes the same save before its
 * deadline. After {@link #startHeartbeatMonitoring()}, a member declared failed makes every survivor save
 * its published local state at once; the application's next group operation then throws
 * {@link io.ironloop.group.ProcessFailedException} and the job ends, to be restarted by its supervisor.
 *
 * <p>Threading: one application thread calls the methods; triggers run on their own threads and
 * synchronise with it. Collective methods must be called by every rank in the same order.
 */
public final class Ironloop implements AutoCloseable {
    /** The series of the global state. */
    public static final String GLOBAL_SERIES = "global";
    private static final Logger LOG = LoggerFactory.getLogger(Ironloop.class);
    private static final String SETTINGS_ENTRY = "ironloop.settings";
    private static final Duration TRIGGER_WAIT = Duration.ofSeconds(60);

    private final Parameters parameters;
    private final ProcessGroup group;
    private final Path folder;
    private final Store store;
    private final byte[] settings;
    private final EngineConfig.Builder engineConfig;
    private final CheckpointEngine globalEngine;
    private final CheckpointEngine localEngine;
    private final Object globalLock = new Object();
    private final Object localLock = new Object();
    private final Map<String, Shadow> globals = new LinkedHashMap<>();
    private final Map<String, Shadow> locals = new LinkedHashMap<>();
    private final LongSupplier clock;
    private final CheckpointPolicy globalGates;
    private final CheckpointPolicy localGates;
    private final boolean fresh;
    private final boolean publishGlobalEveryCall;
    private final LauncherLink launcher = LauncherLink.get();
    private final ExecutorService heartbeatSaver;
    private final RuntimeListener listener;
    private final Optional<Completion> completion;
    private Triggers triggers;
    private volatile boolean heartbeatMonitoring;
    private Future<?> heartbeatSave;
    private long iteration;
    private long globalPublished = -1;
    private long globalPersisted = -1;
    private long localPublishedVersion;
    private long localPublishedIteration;
    private long localPersistedVersion;
    private boolean perRankState;
    private OptionalLong localCut = OptionalLong.empty();
    private boolean closed;

    private Ironloop(Builder b) {
        this.parameters = b.parameters != null ? b.parameters : loadParameters(b.parametersFile);
        this.listener = b.listener;
        this.settings = canonical(b.settings);
        this.folder = parameters.get(EngineKeys.FT_FOLDER).toAbsolutePath().normalize();
        this.fresh = parameters.get(RuntimeKeys.FRESH);
        this.clock = b.clock;
        this.globalGates = FrequencyGates.global(parameters, clock);
        this.localGates = FrequencyGates.local(parameters, clock);
        boolean signals = parameters.get(TriggerKeys.TRIGGER_SIGNAL);
        boolean notices = parameters.get(TriggerKeys.PREEMPTION_NOTICE) != PreemptionNoticeSource.NONE;
        this.publishGlobalEveryCall = signals || notices;
        GroupListener groupListener = new GroupListener() {
            @Override
            public void failed(Set<Integer> worldRanks) {
                onFailure(worldRanks);
            }
        };
        Function<GroupListener, ProcessGroup> joiner = b.joiner != null ? b.joiner
                : l -> ProcessGroups.join(GroupConfig.from(parameters), l);
        // the group's formation mostly waits on the network: time to load the checkpoint path
        CheckpointEngine.warmUpInBackground();
        this.group = joiner.apply(groupListener);
        this.heartbeatSaver = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-heartbeat-save");
            t.setDaemon(true);
            return t;
        });
        Store s = null;
        CheckpointEngine global = null;
        CheckpointEngine local = null;
        try {
            s = Store.directory(folder);
            this.engineConfig = EngineConfig.from(parameters).jobId(group.jobId()).rank(group.rank(), group.size());
            EngineListener events = new EngineListener() {
                @Override
                public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
                    listener.snapshotted(series.equals(GLOBAL_SERIES) ? "global" : "local", iteration, blocking, stagedBytes);
                }

                @Override
                public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                    String level = line.series().equals(GLOBAL_SERIES) ? "global" : "local";
                    launcher.saved(line.iteration(), level);
                    listener.saved(level, line.iteration(), sinceStart);
                }
            };
            if (group.rank() == 0) {
                global = CheckpointEngine.open(engineConfig.series(GLOBAL_SERIES).build(), s, events);
                global.protect(SETTINGS_ENTRY, Scope.SETTINGS, settings);
            }
            int localRetain = parameters.get(RuntimeKeys.CHECKPOINTING_LOCAL_RECENT) ? 2
                    : Math.toIntExact(parameters.get(EngineKeys.RETAIN_LINES));
            local = CheckpointEngine.open(EngineConfig.from(parameters).jobId(group.jobId()).rank(group.rank(), group.size())
                    .series(localSeries(group.rank())).retainLines(localRetain).build(), s, events);
            local.protect(SETTINGS_ENTRY, Scope.SETTINGS, settings);
            this.store = s;
            this.globalEngine = global;
            this.localEngine = local;
            this.completion = readCompletion();
            if (completion.isPresent() && group.rank() == 0) {
                launcher.event("already-complete", Map.of("folder", folder.toString()));  // the launcher's fault check names it
            }
            if (signals || notices) {
                triggers = Triggers.start(TriggerOptions.from(parameters), this::onTrigger, b.triggerListener);
            }
        } catch (RuntimeException e) {
            closeQuietly(local);
            closeQuietly(global);
            closeQuietly(s);
            heartbeatSaver.shutdownNow();
            group.close();
            throw e;
        }
        LOG.info("rank {} of {} (job {}): checkpoints in {}, scheduler {}, triggers: signals {}, notices {}", group.rank(),
                group.size(), group.jobId(), folder, scheduler(), signals, notices);
    }

    /** A builder; {@link Builder#start()} joins the group. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the runtime with the parameter file the launcher passes ({@code IRONLOOP_PARAMS}), or defaults
     * and {@code IRONLOOP_<KEY>} variables when there is none.
     *
     * @param settings the application's settings (DeLIA's settings file), fingerprinted into every line
     * @throws ConfigurationException for an unknown key, a bad value or an inconsistent configuration
     */
    public static Ironloop start(Map<String, ?> settings) {
        return builder().settings(settings).start();
    }

    // ----------------------------------------------------------------------------------------- identity

    /** This rank's process group. Failures surface as {@link io.ironloop.group.ProcessFailedException}. */
    public ProcessGroup group() {
        return group;
    }

    /** This process's rank. */
    public int rank() {
        return group.rank();
    }

    /** The number of ranks. */
    public int size() {
        return group.size();
    }

    /** The parameters in effect. */
    public Parameters parameters() {
        return parameters;
    }

    /** The configured workload scheduler ({@code WORKLOAD_SCHEDULER}). */
    public WorkloadScheduler scheduler() {
        return parameters.get(RuntimeKeys.WORKLOAD_SCHEDULER);
    }

    /** The checkpoint folder ({@code FT_FOLDER}), absolute. */
    public Path folder() {
        return folder;
    }

    /** The launcher link of this process (a no-op outside {@code ironloop run}), for application events. */
    public LauncherLink launcher() {
        return launcher;
    }

    /**
     * The completion record of an earlier run over the same folder with the same settings, if it finished
     * (and {@code FRESH} is not set). The application then reports it instead of computing again.
     */
    public Optional<Completion> completion() {
        return completion;
    }

    // ------------------------------------------------------------------------------------- registration

    /** Registers global state (same on every rank): a primitive array. DeLIA's {@code SetGlobalData}. */
    public void registerGlobal(String name, Object primitiveArray) {
        register(globals, globalLock, globalEngine, Scope.GLOBAL, Shadow.ofArray(name, primitiveArray));
    }

    /** Registers global state held by an object (DeLIA's {@code IDataGlobal}). */
    public void registerGlobal(String name, Snapshotable entity) {
        register(globals, globalLock, globalEngine, Scope.GLOBAL, Shadow.ofEntity(name, entity));
    }

    /** Registers this rank's local state: a primitive array. DeLIA's {@code SetLocalData}. */
    public void registerLocal(String name, Object primitiveArray) {
        register(locals, localLock, localEngine, Scope.LOCAL, Shadow.ofArray(name, primitiveArray));
    }

    /** Registers local state held by an object (DeLIA's {@code IDataLocal}). */
    public void registerLocal(String name, Snapshotable entity) {
        register(locals, localLock, localEngine, Scope.LOCAL, Shadow.ofEntity(name, entity));
    }

    /**
     * Stops protecting {@code name} (global or local); later lines no longer hold it.
     *
     * @return whether it was registered
     */
    public boolean unregister(String name) {
        synchronized (globalLock) {
            if (globals.remove(name) != null) {
                if (globalEngine != null) {
                    globalEngine.unprotect(name);
                }
                return true;
            }
        }
        synchronized (localLock) {
            if (locals.remove(name) != null) {
                localEngine.unprotect(name);
                return true;
            }
        }
        return false;
    }

    private void register(Map<String, Shadow> into, Object lock, CheckpointEngine engine, Scope scope, Shadow shadow) {
        ensureOpen();
        synchronized (globalLock) {
            synchronized (localLock) {
                if (globals.containsKey(shadow.name()) || locals.containsKey(shadow.name()) || shadow.name().equals(SETTINGS_ENTRY)) {
                    throw new IllegalArgumentException("'" + shadow.name() + "' is already registered");
                }
            }
        }
        synchronized (lock) {
            into.put(shadow.name(), shadow);
            if (engine != null) {
                shadow.protect(engine, scope);
            }
        }
    }

    // ------------------------------------------------------------------------------------------- global

    /**
     * Whether a global checkpoint made under the current settings exists (DeLIA's
     * {@code CanRecoverGlobalCheckpointing}). Collective: rank 0 decides and tells the others. A checkpoint
     * under other settings gives false, with both fingerprints logged; its lines are kept.
     */
    public boolean canRecoverGlobal() {
        ensureOpen();
        long verdict = group.rank() == 0 ? globalVerdict() : 0;
        return group.broadcast(new long[] {verdict}, 0)[0] >= 0;
    }

    private long globalVerdict() {
        if (fresh) {
            LOG.info("FRESH is set: starting over without reading the checkpoints in {}", folder);
            return -1;
        }
        List<LineInfo> lines = globalEngine.lines();
        if (lines.isEmpty()) {
            return -1;
        }
        LineInfo newest = lines.get(lines.size() - 1);
        String now = globalEngine.settingsFingerprint();
        if (!newest.settingsFingerprint().equals(now) && !parameters.get(EngineKeys.IGNORE_SETTINGS)) {
            LOG.warn("the settings changed since the newest global checkpoint {}/{} (settings fingerprint {} there, {} now):"
                    + " starting fresh; the old lines are kept", folder, newest.dataFile(), newest.settingsFingerprint(), now);
            listener.settingsChanged(newest.settingsFingerprint(), now);
            return -1;
        }
        return newest.iteration();
    }

    /**
     * Restores the global state into the registered objects (DeLIA's {@code ReadGlobalData}). Collective:
     * rank 0 restores the newest intact line (falling back to older ones past damage) and hands its verified
     * files to the others, who verify them again while restoring.
     *
     * @return the iteration restored, also {@link #iteration()} from now on
     * @throws io.ironloop.core.NoIntactCheckpointException if no line is intact (on rank 0; an
     *     {@link IronloopException} naming rank 0's error on the others)
     */
    public long readGlobal() {
        if (perRankState) { // the per-rank recovery line was negotiated against iteration 0: it must see this one
            throw new IllegalStateException("call readGlobal() before canRecoverLocal(): per-rank state is restored at its iteration");
        }
        return readGlobal(OptionalLong.empty());
    }

    /** {@link #readGlobal()} of the newest intact line, or of the line at {@code at} (on every rank from a copy). */
    private long readGlobal(OptionalLong at) {
        ensureOpen();
        long start = System.nanoTime();
        byte[] packet;
        RuntimeException failure = null;
        LineInfo line = null;
        if (group.rank() == 0) {
            try {
                synchronized (globalLock) {
                    if (at.isPresent()) { // restored below from the copy, as on the other ranks
                        line = LocalRecovery.lineAt(globalEngine.lines(), at.getAsLong(), folder.toString());
                    } else {
                        line = globalEngine.restore().orElseThrow(() -> new IronloopException("no global checkpoint in " + folder
                                + " to read: call readGlobal() only when canRecoverGlobal() is true"));
                        globals.values().forEach(Shadow::apply);
                    }
                }
                packet = withStatus((byte) 0, SeriesFiles.pack(store, SeriesFiles.filesOf(line)));
            } catch (IOException | RuntimeException e) {
                failure = e instanceof RuntimeException r ? r : new IronloopException(e.getMessage(), e);
                packet = withStatus((byte) 1, String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
            }
        } else {
            packet = null;
        }
        byte[] received = group.broadcast(packet, 0);
        if (failure != null) {
            throw failure;
        }
        if (group.rank() != 0 || at.isPresent()) {
            if (received[0] != 0) {
                throw new IronloopException("rank 0 could not read the global checkpoint: "
                        + new String(received, 1, received.length - 1, StandardCharsets.UTF_8));
            }
            line = restoreMirror(java.util.Arrays.copyOfRange(received, 1, received.length));
        }
        synchronized (globalLock) {
            iteration = line.iteration();
            globalPublished = iteration;
            globalPersisted = iteration;
        }
        LOG.info("rank {}: global state restored at iteration {} from {}/{} in {} ms", group.rank(), iteration, folder,
                line.dataFile(), (System.nanoTime() - start) / 1_000_000);
        launcher.restored(iteration);
        listener.restored("global", iteration);
        return iteration;
    }

    private LineInfo restoreMirror(byte[] files) {
        try {
            synchronized (globalLock) {
                return LocalRecovery.restoreCopy(files, engineConfig.series(GLOBAL_SERIES).build(), Scope.GLOBAL, globals.values(),
                        SETTINGS_ENTRY, settings, () -> new IronloopException("rank 0 sent no global line"));
            }
        } catch (IOException e) {
            throw new IronloopException("cannot restore the global line rank 0 sent: " + e.getMessage(), e);
        }
    }

    /** The global iteration: how many times {@link #saveGlobal()} was called, counting restored ones. */
    public long iteration() {
        synchronized (globalLock) {
            return iteration;
        }
    }

    /**
     * Ends a global iteration (DeLIA's {@code SaveGlobalData}): counts it and, when the frequency gates
     * ({@code CHECKPOINTING_GLOBAL_ITERATION}, {@code CHECKPOINTING_TIME_GLOBAL}) pass, rank 0 saves the
     * registered global state; the copy happens now, the write in the background. Call it on every rank
     * when the global state is consistent (after the reduction). Reports the next iteration to the launcher,
     * where {@code --fail RANK@ITER} faults strike.
     *
     * @return whether this call saved (false on ranks other than 0)
     */
    public boolean saveGlobal() {
        ensureOpen();
        boolean saved = false;
        long now;
        boolean due;
        synchronized (globalLock) {
            now = ++iteration;
            long t = clock.getAsLong();
            due = (group.rank() == 0 || perRankState) && globalGates.due(t); // per-rank state: every rank
            if (due && group.rank() != 0) {
                globalGates.taken(t, Duration.ZERO); // rank 0's gates count its global save; the others' their per-rank copy
            }
            if (group.rank() == 0) {
                if (due || publishGlobalEveryCall) {
                    globals.values().forEach(Shadow::publish);
                    globalPublished = now;
                }
                if (due) {
                    globalEngine.checkpoint(now);
                    globalGates.taken(t, globalEngine.lastCost());
                    globalPersisted = now;
                    saved = true;
                }
            }
        }
        if (perRankState) {
            publishLocals(now, due); // at the boundary: the state after `now` iterations, as the global line holds
        }
        launcher.iteration(now);
        return saved;
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
        perRankState = true;
        if (fresh) {
            return false;
        }
        Optional<String> settingsNow = parameters.get(EngineKeys.IGNORE_SETTINGS) ? Optional.empty()
                : Optional.of(localEngine.settingsFingerprint());
        localCut = LocalRecovery.negotiate(group, LocalRecovery.madeUnder(settingsNow, localEngine.lines()),
                globalEngine == null ? List.of() : LocalRecovery.madeUnder(settingsNow, globalEngine.lines()), iteration(), folder);
        return localCut.isPresent();
    }

    /**
     * Restores every rank's per-rank state at the recovery line {@link #canRecoverLocal()} agreed on. When
     * that line is older than the global state restored (a rank died before its newest line was durable),
     * the global state is first restored again at that line, with a warning. Collective.
     *
     * @return the iteration restored, also {@link #iteration()} from now on
     * @throws IllegalStateException if {@link #canRecoverLocal()} did not return true
     * @throws IronloopException if a rank cannot restore its line (on every rank, naming how many failed)
     */
    public long readLocal() {
        ensureOpen();
        long at = localCut.orElseThrow(() -> new IllegalStateException("call readLocal() only when canRecoverLocal() returned true"));
        if (at < iteration()) {
            LOG.warn("rank {}: not every rank has per-rank state at iteration {}: restoring the global state again at iteration {},"
                    + " the newest line every rank has", group.rank(), iteration(), at);
            readGlobal(OptionalLong.of(at));
        }
        LocalRecovery.onEveryRank(group, "restore their per-rank state at iteration " + at + " in " + folder, () -> {
            synchronized (localLock) {
                LocalRecovery.restoreAt(store, localEngine.config(), localEngine.lines(), at, Scope.LOCAL, locals.values(),
                        SETTINGS_ENTRY, settings);
                localPublishedIteration = at;
            }
        });
        launcher.event("restored-local", Map.of("iteration", at));
        listener.restored("local", at);
        return at;
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
        return fresh ? List.of() : LocalRecovery.records(store, folder, group, localEngine.settingsFingerprint());
    }

    /**
     * Publishes the registered local state: copies it into the copy that triggers save. Call it at task
     * boundaries, when the local state is consistent.
     */
    public void publishLocal() {
        ensureOpen();
        if (perRankState) {
            throw new IllegalStateException("local state is per-rank state here (canRecoverLocal() was called): saveGlobal()"
                    + " publishes and saves it at the iteration boundary; a copy from inside an iteration would be restored and"
                    + " the iteration then redone. Remove publishLocal()/saveLocal(), or keep per-task records (readLocalRecords)");
        }
        publishLocals(iteration(), false);
    }

    private void publishLocals(long at, boolean persist) {
        synchronized (localLock) {
            locals.values().forEach(Shadow::publish);
            localPublishedVersion++;
            localPublishedIteration = at;
            if (persist) {
                persistLocal(false);
            }
        }
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
        synchronized (localLock) {
            long t = clock.getAsLong();
            if (!localGates.due(t)) {
                return false;
            }
            persistLocal(false);
            localGates.taken(t, localEngine.lastCost());
            return true;
        }
    }

    /**
     * Saves the published local state unless it is already saved; waits for durability when asked. A durable
     * save (a trigger's) writes the published copy in place, without copying it into the engine's staging: it
     * is a stable snapshot, and the next {@link #publishLocal()} waits for {@code localLock}, held until the
     * line is durable.
     */
    private void persistLocal(boolean durable) {
        synchronized (localLock) {
            if (localPersistedVersion != localPublishedVersion) {
                if (durable) {
                    localEngine.checkpointInPlace(localPublishedIteration);
                } else {
                    localEngine.checkpoint(localPublishedIteration);
                }
                localPersistedVersion = localPublishedVersion;
            }
            if (durable) {
                localEngine.awaitDurable();
            }
        }
    }

    /** Saves rank 0's published global state durably unless it is already saved; in place, as {@link #persistLocal}. */
    private void persistGlobal() {
        if (globalEngine == null) {
            return;
        }
        synchronized (globalLock) {
            if (globalPublished > globalPersisted) {
                globalEngine.checkpointInPlace(globalPublished);
                globalPersisted = globalPublished;
            }
            globalEngine.awaitDurable();
        }
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
        if (!parameters.isSet(GroupKeys.TRIGGER_HEARTBEAT_MONITORING)) {
            LOG.info("TRIGGER_HEARTBEAT_MONITORING is absent from the parameters: failures of other ranks trigger no local save");
            return false;
        }
        heartbeatMonitoring = true;
        if (!group.failedRanks().isEmpty()) {
            onFailure(group.failedRanks());
        }
        return true;
    }

    /** Stops heartbeat monitoring (DeLIA's {@code HeartbeatMonitoring_Finalize}). */
    public void stopHeartbeatMonitoring() {
        heartbeatMonitoring = false;
    }

    private void onFailure(Set<Integer> worldRanks) {
        if (!heartbeatMonitoring) {
            return;
        }
        synchronized (heartbeatSaver) {
            if (heartbeatSave != null || heartbeatSaver.isShutdown()) {
                return;
            }
            long detected = System.currentTimeMillis();
            launcher.event("detected", Map.of("failed", List.copyOf(worldRanks)));
            heartbeatSave = heartbeatSaver.submit(() -> {
                try {
                    persistLocal(true);
                    LOG.warn("rank {}: ranks {} failed; local state saved at iteration {} in {} ms", group.rank(), worldRanks,
                            localPublishedIteration, System.currentTimeMillis() - detected);
                    listener.triggered("heartbeat", worldRanks.toString());
                } catch (RuntimeException e) {
                    LOG.error("rank {}: the local save after the failure of ranks {} failed: {}", group.rank(), worldRanks, e.toString());
                }
            });
        }
    }

    private void onTrigger(TriggerEvent.Cause cause, Instant deadline) {
        LOG.warn("rank {}: {} — saving the published state before {}", group.rank(), cause, deadline);
        launcher.event("trigger", Map.of("cause", String.valueOf(cause), "deadline", deadline.toString()));
        persistLocal(true);
        persistGlobal();
        listener.triggered("signal-or-notice", String.valueOf(cause));
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
        if (globalEngine != null) {
            synchronized (globalLock) {
                globalEngine.awaitDurable();
            }
        }
        group.barrier();
        if (group.rank() == 0) {
            try {
                CompletionFile.write(folder, new Completion(group.jobId(), iteration(), result, localEngine.settingsFingerprint(),
                        Instant.now().toString()));
            } catch (IOException e) {
                throw new IronloopException("cannot write the completion record in " + folder + ": " + e.getMessage(), e);
            }
        }
        group.barrier();
        launcher.event("complete", Map.of("iteration", iteration()));
    }

    private Optional<Completion> readCompletion() {
        byte[] verdict = new byte[0];
        if (group.rank() == 0) {
            try {
                if (fresh) {
                    CompletionFile.delete(folder);
                } else {
                    Optional<Completion> c = CompletionFile.read(folder);
                    if (c.isPresent() && c.get().settingsFingerprint().equals(localEngine.settingsFingerprint())) {
                        verdict = c.get().result().getBytes(StandardCharsets.UTF_8);
                    }
                }
            } catch (IOException e) {
                throw new IronloopException("cannot remove the completion record in " + folder + ": " + e.getMessage(), e);
            }
        }
        byte[] agreed = group.broadcast(verdict, 0);
        if (agreed.length == 0) {
            return Optional.empty();
        }
        return CompletionFile.read(folder).or(() -> Optional.of(new Completion(group.jobId(), -1,
                new String(agreed, StandardCharsets.UTF_8), localEngine.settingsFingerprint(), "")));
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
        try {
            if (heartbeatMonitoring && !group.failedRanks().isEmpty()) {
                onFailure(group.failedRanks());
            }
            Future<?> pending;
            synchronized (heartbeatSaver) {
                pending = heartbeatSave;
                heartbeatSaver.shutdown();
            }
            if (pending != null) {
                try {
                    pending.get(TRIGGER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    // A task may have finished and been published after the failure-triggered save: keep it too.
                    persistLocal(true);
                } catch (Exception e) {
                    LOG.warn("rank {}: the failure-triggered save did not finish: {}", group.rank(), e.toString());
                }
            }
            heartbeatMonitoring = false;
            if (triggers != null) {
                triggers.close();
            }
        } finally {
            synchronized (localLock) {
                closeQuietly(localEngine);
            }
            synchronized (globalLock) {
                closeQuietly(globalEngine);
            }
            closeQuietly(store);
            group.close();
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this Ironloop runtime is closed");
        }
    }

    private static String localSeries(int rank) {
        return StoreCatalog.rankSeries(rank);
    }

    private static byte[] withStatus(byte status, byte[] body) {
        return ByteBuffer.allocate(1 + body.length).put(status).put(body).array();
    }

    /** Settings as sorted {@code key=value} lines: the same map gives the same bytes, hence the same fingerprint. */
    private static byte[] canonical(Map<String, ?> settings) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(settings).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Parameters loadParameters(Path file) {
        Path f = file;
        if (f == null) {
            String fromLauncher = System.getenv(LaunchEnvironment.PARAMS);
            f = fromLauncher == null || fromLauncher.isBlank() ? null : Path.of(fromLauncher);
        }
        return Parameters.load(RuntimeKeys.TABLE, f, System.getenv(), Map.of());
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", c, e.toString());
        }
    }

    /** Configures and starts a runtime. */
    public static final class Builder {
        private Parameters parameters;
        private Path parametersFile;
        private Map<String, ?> settings = Map.of();
        private Function<GroupListener, ProcessGroup> joiner;
        private TriggerListener triggerListener = TriggerListener.NONE;
        private RuntimeListener listener = RuntimeListener.NONE;
        private LongSupplier clock = System::nanoTime;

        private Builder() {
        }

        /** Parameters already loaded (default: the launcher's {@code IRONLOOP_PARAMS} file, environment, defaults). */
        public Builder parameters(Parameters p) {
            this.parameters = Objects.requireNonNull(p, "parameters");
            return this;
        }

        /** The JSON parameter file to load (DeLIA's {@code delia_param.json}), under environment overrides. */
        public Builder parametersFile(Path file) {
            this.parametersFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /** The application's settings (DeLIA's settings file); values are compared as strings. */
        public Builder settings(Map<String, ?> s) {
            this.settings = Map.copyOf(s);
            return this;
        }

        /**
         * How to join the process group, given the runtime's listener (default: {@link ProcessGroups#join} with
         * the parameters' group configuration). Tests use an in-JVM cluster here.
         */
        public Builder joinWith(Function<GroupListener, ProcessGroup> j) {
            this.joiner = Objects.requireNonNull(j, "joiner");
            return this;
        }

        /** Receives the triggers' events. */
        public Builder triggerListener(TriggerListener l) {
            this.triggerListener = Objects.requireNonNull(l, "listener");
            return this;
        }

        /** Receives the runtime's events (saves, restores, triggers). */
        public Builder listener(RuntimeListener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        /** The monotonic clock (nanoseconds) the frequency gates read; tests inject one instead of sleeping. */
        Builder clock(LongSupplier nanoClock) {
            this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        /**
         * Loads the parameters, joins the group, opens the checkpoint folder and starts the configured
         * triggers. DeLIA's {@code Init} and {@code CanWork}: a misconfiguration throws here.
         *
         * @throws ConfigurationException for an unknown key, a bad value or a configuration that cannot work
         */
        public Ironloop start() {
            if (parameters != null && parametersFile != null) {
                throw new IllegalStateException("give either parameters or a parameter file, not both");
            }
            return new Ironloop(this);
        }
    }
}
