package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.TriggerAction;
import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerListener;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A trigger action and listener that record their calls; the action can be held until {@link #release()}. */
final class RecordingAction implements TriggerAction, TriggerListener {

    /** One call of the action. */
    record Call(TriggerEvent.Cause cause, Instant deadline) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<TriggerEvent> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate;
    private final RuntimeException failure;

    private RecordingAction(boolean held, RuntimeException failure) {
        this.gate = new CountDownLatch(held ? 1 : 0);
        this.failure = failure;
    }

    static RecordingAction immediate() {
        return new RecordingAction(false, null);
    }

    static RecordingAction held() {
        return new RecordingAction(true, null);
    }

    static RecordingAction failing(RuntimeException failure) {
        return new RecordingAction(false, failure);
    }

    @Override
    public void onTrigger(TriggerEvent.Cause cause, Instant deadline) throws InterruptedException {
        calls.add(new Call(cause, deadline));
        if (!gate.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("test action was never released");
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void onEvent(TriggerEvent event) {
        events.add(event);
    }

    void release() {
        gate.countDown();
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    List<TriggerEvent> events() {
        return List.copyOf(events);
    }

    <T extends TriggerEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
