package io.ironloop.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.EngineListener;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.format.Scope;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.metrics.RankMetrics;
import io.ironloop.runtime.internal.state.CommittedLines;
import io.ironloop.runtime.internal.state.EngineEvents;
import io.ironloop.runtime.internal.state.FrequencyGates;
import io.ironloop.runtime.internal.state.GlobalState;
import io.ironloop.runtime.internal.state.JobCompletion;
import io.ironloop.runtime.internal.state.LocalState;
import io.ironloop.runtime.internal.state.RankInputs;
import io.ironloop.runtime.internal.state.RemoteCopies;
import io.ironloop.runtime.internal.trigger.TriggerReactions;
import io.ironloop.runtime.recovery.RestartRecovery;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerKeys;
import io.ironloop.runtime.trigger.TriggerListener;
import io.ironloop.runtime.trigger.TriggerOptions;
import io.ironloop.runtime.trigger.Triggers;

/**
 * Configures and starts an {@link Ironloop} runtime ({@link Ironloop#builder()}): DeLIA's {@code Init} and
 * {@code CanWork}. {@link #start()} loads the parameters, joins the group, opens the checkpoint folder and
 * assembles the runtime's collaborators; a misconfiguration throws there. Not thread-safe; use it once.
 */
public final class IronloopBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(Ironloop.class);

    private Parameters parameters;
    private Path parametersFile;
    private Map<String, ?> settings = Map.of();
    private Function<GroupListener, ProcessGroup> joiner;
    private TriggerListener triggerListener = TriggerListener.NONE;
    private final List<Consumer<? super RuntimeEvent>> subscribers = new ArrayList<>();
    private LongSupplier clock = System::nanoTime;

    IronloopBuilder() {
    }

    /** Parameters already loaded (default: the launcher's {@code IRONLOOP_PARAMS} file, environment, defaults). */
    public IronloopBuilder parameters(Parameters p) {
        this.parameters = Objects.requireNonNull(p, "parameters");
        return this;
    }

    /** The JSON parameter file to load (DeLIA's {@code delia_param.json}), under environment overrides. */
    public IronloopBuilder parametersFile(Path file) {
        this.parametersFile = Objects.requireNonNull(file, "file");
        return this;
    }

    /** The application's settings (DeLIA's settings file); values are compared as strings. */
    public IronloopBuilder settings(Map<String, ?> s) {
        this.settings = Map.copyOf(s);
        return this;
    }

    /**
     * How to join the process group, given the runtime's listener (default: {@link ProcessGroups#join} with
     * the parameters' group configuration). Tests use an in-JVM cluster here.
     */
    public IronloopBuilder joinWith(Function<GroupListener, ProcessGroup> j) {
        this.joiner = Objects.requireNonNull(j, "joiner");
        return this;
    }

    /** Receives the triggers' events. */
    public IronloopBuilder triggerListener(TriggerListener l) {
        this.triggerListener = Objects.requireNonNull(l, "listener");
        return this;
    }

    /**
     * Adds a subscriber to the runtime's events ({@link RuntimeEvent}: saves, restores, triggers, completion),
     * called on the thread that caused each event (the application's, a trigger's or a background writer's):
     * it must be quick and thread-safe; one that throws is logged and skipped.
     */
    public IronloopBuilder subscribe(Consumer<? super RuntimeEvent> subscriber) {
        subscribers.add(Objects.requireNonNull(subscriber, "subscriber"));
        return this;
    }

    /** The monotonic clock (nanoseconds) the frequency gates read; tests inject one instead of sleeping. */
    IronloopBuilder clock(LongSupplier nanoClock) {
        this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
        return this;
    }

    /**
     * Loads the parameters, joins the group, opens the checkpoint folder and starts the configured
     * triggers. DeLIA's {@code Init} and {@code CanWork}: a misconfiguration throws here.
     *
     * @throws ConfigurationException for an unknown key, a bad value or a configuration that cannot work
     * @throws IllegalStateException if both parameters and a parameter file were given
     */
    public Ironloop start() {
        if (parameters != null && parametersFile != null) {
            throw new IllegalStateException("give either parameters or a parameter file, not both");
        }
        Parameters p = parameters != null ? parameters : RankInputs.parameters(parametersFile);
        byte[] settingsBytes = RankInputs.canonical(settings);
        Path folder = p.get(EngineKeys.FT_FOLDER).toAbsolutePath().normalize();
        boolean signals = p.get(TriggerKeys.TRIGGER_SIGNAL);
        boolean notices = p.get(TriggerKeys.PREEMPTION_NOTICE) != PreemptionNoticeSource.NONE;
        TriggerReactions[] reacting = new TriggerReactions[1]; // the group reports failures from its first moment
        GroupListener onFailure = new GroupListener() {
            @Override
            public void failed(Set<Integer> worldRanks) {
                if (reacting[0] != null) {
                    reacting[0].onFailure(worldRanks);
                }
            }
        };
        CheckpointEngine.warmUpInBackground(); // the group's formation mostly waits on the network
        ProcessGroup group = (joiner != null ? joiner : (Function<GroupListener, ProcessGroup>) l -> ProcessGroups.join(
                GroupConfig.from(p), l)).apply(onFailure);
        RuntimeEvents events = new RuntimeEvents();
        subscribers.forEach(events::subscribe);
        events.subscribeProvided(group::rank); // the launcher's, under ironloop run
        RankMetrics metrics = null;
        Store store = null;
        LineReplicator replicator = null;
        CheckpointEngine globalEngine = null;
        CheckpointEngine localEngine = null;
        try {
            metrics = RankMetrics.start(p, group.jobId(), group.worldRank(group.rank()), group.size());
            events.subscribe(metrics);
            store = Store.directory(folder);
            EngineEvents engineEvents = new EngineEvents(events, CommittedLines.provided(p, events));
            Function<String, EngineConfig> configOf = series -> EngineConfig.from(p).jobId(group.jobId())
                    .rank(group.rank(), group.size()).series(series).build();
            Optional<String> globalSeries = GlobalState.seriesOf(group.rank(), group.size());
            List<String> ownSeries = new ArrayList<>();
            globalSeries.ifPresent(ownSeries::add);
            ownSeries.add(StoreCatalog.rankSeries(group.rank()));
            replicator = RemoteCopies.open(p, store, ownSeries, engineEvents.remoteLevels());
            EngineListener engineListener = replicator.listening(engineEvents);
            if (globalSeries.isPresent()) {
                globalEngine = CheckpointEngine.open(configOf.apply(globalSeries.get()), store, engineListener);
                globalEngine.protect(Ironloop.SETTINGS_ENTRY, Scope.SETTINGS, settingsBytes);
            }
            int localRetain = p.get(RuntimeKeys.CHECKPOINTING_LOCAL_RECENT) ? 2 : Math.toIntExact(p.get(EngineKeys.RETAIN_LINES));
            localEngine = CheckpointEngine.open(EngineConfig.from(p).jobId(group.jobId()).rank(group.rank(), group.size())
                    .series(StoreCatalog.rankSeries(group.rank())).retainLines(localRetain).build(), store, engineListener);
            localEngine.protect(Ironloop.SETTINGS_ENTRY, Scope.SETTINGS, settingsBytes);
            RemoteCopies.catchUp(replicator, ownSeries);
            GlobalState global = new GlobalState(globalEngine, FrequencyGates.global(p, clock), clock, signals || notices);
            LocalState local = new LocalState(localEngine, FrequencyGates.local(p, clock), clock);
            reacting[0] = new TriggerReactions(group, local, global, events);
            RestartRecovery recovery = new RestartRecovery(group, store, folder, new RestartRecovery.Options(p.get(RuntimeKeys.FRESH),
                    p.get(EngineKeys.IGNORE_SETTINGS)), global, local, events, configOf, Ironloop.SETTINGS_ENTRY, settingsBytes);
            JobCompletion completionRecord = new JobCompletion(group, folder, localEngine.settingsFingerprint(), replicator.levels());
            Optional<Completion> completion = completionRecord.readAtStart(p.get(RuntimeKeys.FRESH));
            if (completion.isPresent() && group.rank() == 0) {
                events.publish(new RuntimeEvent.AlreadyComplete(folder.toString())); // the launcher's fault check names it
            }
            Triggers triggers = signals || notices ? Triggers.start(TriggerOptions.from(p), reacting[0], triggerListener) : null;
            LOG.info("rank {} of {} (job {}): checkpoints in {}, scheduler {}; {}", group.rank(), group.size(), group.jobId(),
                    folder, p.get(RuntimeKeys.WORKLOAD_SCHEDULER), ProtectionSummary.of(p));
            return new Ironloop(new RuntimeParts(p, group, folder, store, replicator, events, global, local, reacting[0],
                    recovery, completionRecord, completion, triggers, metrics));
        } catch (RuntimeException e) {
            if (reacting[0] != null) {
                reacting[0].abandon();
            }
            RuntimeParts.closeQuietly(metrics);
            RuntimeParts.closeQuietly(localEngine);
            RuntimeParts.closeQuietly(globalEngine);
            RuntimeParts.closeQuietly(replicator);
            RuntimeParts.closeQuietly(store);
            group.close();
            throw e;
        }
    }
}
