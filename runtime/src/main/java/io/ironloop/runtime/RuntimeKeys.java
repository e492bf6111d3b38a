package io.ironloop.runtime;

import java.time.Duration;
import java.util.List;

import io.ironloop.config.ParameterKey;
import io.ironloop.config.ParameterTable;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.level.LevelKeys;
import io.ironloop.group.GroupKeys;
import io.ironloop.runtime.tasks.TaskKeys;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import io.ironloop.runtime.trigger.TriggerKeys;

/**
 * DeLIA's checkpointing and scheduling keys, verbatim, and the runtime's own keys beside them. Bare
 * numbers in the time keys are seconds ({@code "CHECKPOINTING_TIME_GLOBAL": 30} is 30 s).
 */
public final class RuntimeKeys {
    /** Global save on every N-th {@link Ironloop#saveGlobal()} call. */
    public static final ParameterKey<Long> CHECKPOINTING_GLOBAL_ITERATION = ParameterKey.integer(
            "CHECKPOINTING_GLOBAL_ITERATION", null, 1,
            "save the global data on every N-th save-global call of the run (with CHECKPOINTING_TIME_GLOBAL, "
                    + "both gates must pass; with neither, every call saves)");

    /** Minimum time between two global saves. */
    public static final ParameterKey<Duration> CHECKPOINTING_TIME_GLOBAL = ParameterKey.duration("CHECKPOINTING_TIME_GLOBAL",
            null, Duration.ZERO, "minimum time between two global saves, counted from the runtime's start until the first save, then "
                    + "from the last save (so the first save comes one interval after the start; "
                    + "with CHECKPOINTING_GLOBAL_ITERATION, both gates must pass)");

    /** Minimum time between two local saves. */
    public static final ParameterKey<Duration> CHECKPOINTING_TIME_LOCAL = ParameterKey.duration("CHECKPOINTING_TIME_LOCAL",
            null, Duration.ZERO, "minimum time between two local saves by save-local, counted from the runtime's start until the "
                    + "first save, then from the last save; off: local data is saved only on a trigger");

    /** A second minimum gap between local saves. */
    public static final ParameterKey<Duration> CHECKPOINTING_TIME_DIFF_LOCAL = ParameterKey.duration(
            "CHECKPOINTING_TIME_DIFF_LOCAL", null, Duration.ZERO,
            "a second minimum gap between local saves by save-local, counted the same way; both it and "
                    + "CHECKPOINTING_TIME_LOCAL must pass");

    /** Keep only the newest local line of each rank. */
    public static final ParameterKey<Boolean> CHECKPOINTING_LOCAL_RECENT = ParameterKey.bool("CHECKPOINTING_LOCAL_RECENT", true,
            "keep only the newest two local checkpoints of each rank — one more than the newest, so that a rank that dies"
                    + " while writing it still shares a line with the others (false: keep RETAIN_LINES of them)");

    /** DeLIA's workload scheduler of task pools (defined with the task pool). */
    public static final ParameterKey<WorkloadScheduler> WORKLOAD_SCHEDULER = TaskKeys.WORKLOAD_SCHEDULER;

    /** Start over even if FT_FOLDER holds checkpoints or a completion record. */
    public static final ParameterKey<Boolean> FRESH = ParameterKey.bool("FRESH", false,
            "ignore the checkpoints and the completion record in FT_FOLDER and start over (nothing is deleted before "
                    + "newer lines replace it); set by ironloop run --fresh for the first attempt only");

    /** The base port of each rank's Prometheus endpoint; off by default. */
    public static final ParameterKey<Long> METRICS_PORT = ParameterKey.integer("METRICS_PORT", null, 0,
            "serve each rank's metrics in Prometheus' format at http://HOST:PORT/metrics, PORT being METRICS_PORT plus the rank "
                    + "at launch (0: ports the kernel chooses, logged at start); off: no endpoint (JFR events are always on)");

    /** Every key of this class, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(CHECKPOINTING_GLOBAL_ITERATION, CHECKPOINTING_TIME_GLOBAL,
            CHECKPOINTING_TIME_LOCAL, CHECKPOINTING_TIME_DIFF_LOCAL, CHECKPOINTING_LOCAL_RECENT, WORKLOAD_SCHEDULER, FRESH, METRICS_PORT);

    /** The table of every key a rank reads: engine, remote levels, runtime, group, triggers and blocks, in documentation order. */
    public static final ParameterTable TABLE = ParameterTable.of(EngineKeys.ALL, LevelKeys.ALL, ALL, GroupKeys.ALL, TriggerKeys.ALL,
            io.ironloop.runtime.blocks.BlockKeys.ALL);

    private RuntimeKeys() {
    }
}
