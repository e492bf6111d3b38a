package io.ironloop.runtime.internal.state;

import io.ironloop.config.Parameters;
import io.ironloop.core.CheckpointPolicy;
import io.ironloop.runtime.RuntimeKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * DeLIA's frequency keys as the engine's {@link CheckpointPolicy}: the runtime has no gate logic of its own.
 * A save is due when every configured gate passes ({@link CheckpointPolicy#allOf}); time gates count from
 * the moment the gates are made (the runtime's start) until the first save, then from the last save.
 */
public final class FrequencyGates {
    private FrequencyGates() {
    }

    /**
     * The global gates: {@code CHECKPOINTING_GLOBAL_ITERATION} (every N-th {@code saveGlobal()} call of this
     * run) and {@code CHECKPOINTING_TIME_GLOBAL}; with neither set, every call saves.
     */
    public static CheckpointPolicy global(Parameters parameters, LongSupplier nanoClock) {
        List<CheckpointPolicy> gates = new ArrayList<>();
        parameters.find(RuntimeKeys.CHECKPOINTING_GLOBAL_ITERATION).ifPresent(n -> gates.add(CheckpointPolicy.everyCalls(n)));
        addTimeGate(gates, parameters.find(RuntimeKeys.CHECKPOINTING_TIME_GLOBAL), nanoClock);
        return gates.isEmpty() ? CheckpointPolicy.always() : CheckpointPolicy.allOf(gates.toArray(CheckpointPolicy[]::new));
    }

    /**
     * The local gates of {@code saveLocal()}: {@code CHECKPOINTING_TIME_LOCAL} and
     * {@code CHECKPOINTING_TIME_DIFF_LOCAL}; with neither set, never due (local state is saved by triggers).
     */
    public static CheckpointPolicy local(Parameters parameters, LongSupplier nanoClock) {
        List<CheckpointPolicy> gates = new ArrayList<>();
        addTimeGate(gates, parameters.find(RuntimeKeys.CHECKPOINTING_TIME_LOCAL), nanoClock);
        addTimeGate(gates, parameters.find(RuntimeKeys.CHECKPOINTING_TIME_DIFF_LOCAL), nanoClock);
        return gates.isEmpty() ? CheckpointPolicy.never() : CheckpointPolicy.allOf(gates.toArray(CheckpointPolicy[]::new));
    }

    private static void addTimeGate(List<CheckpointPolicy> gates, Optional<Duration> gap, LongSupplier nanoClock) {
        gap.ifPresent(g -> gates.add(CheckpointPolicy.minInterval(g, nanoClock)));
    }
}
