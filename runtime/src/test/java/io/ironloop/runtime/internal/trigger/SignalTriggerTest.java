package io.ironloop.runtime.internal.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNotice;
import io.ironloop.runtime.trigger.TerminationSignal;
import io.ironloop.runtime.trigger.TriggerEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The signal trigger's logic, driven by calling its handler directly and recording the exit. */
class SignalTriggerTest {
    private final List<Integer> exits = new CopyOnWriteArrayList<>();

    private SignalTrigger trigger(RecordingAction action, Duration deadline) {
        return trigger(action, new ActionRunner(action, action, Clock.systemUTC()), deadline);
    }

    private SignalTrigger trigger(RecordingAction action, ActionRunner runner, Duration deadline) {
        return new SignalTrigger(EnumSet.allOf(TerminationSignal.class), deadline, runner, action, exits::add, Clock.systemUTC());
    }

    @Test
    void onSignal_term_runsActionOnceThenExits143() {
        RecordingAction action = RecordingAction.immediate();
        SignalTrigger trigger = trigger(action, Duration.ofSeconds(10));
        Instant before = Instant.now();
        trigger.onSignal(TerminationSignal.TERM, 15);
        await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
        assertThat(exits).containsExactly(143);
        assertThat(action.calls()).singleElement().satisfies(call -> {
            assertThat(call.cause()).isInstanceOf(TriggerEvent.SignalReceived.class);
            assertThat(call.deadline()).isBetween(before.plusSeconds(10), Instant.now().plusSeconds(10));
        });
        assertThat(action.events()).extracting(e -> (Object) e.getClass()).containsExactly(TriggerEvent.SignalReceived.class,
                TriggerEvent.ActionCompleted.class, TriggerEvent.Exiting.class);
        assertThat(action.events(TriggerEvent.Exiting.class).get(0).actionFinished()).isTrue();
        assertThat(trigger.fired()).isTrue();
    }

    @Test
    void onSignal_actionOutlivesDeadline_exitsAtDeadlineWithoutWaiting() {
        RecordingAction action = RecordingAction.held();
        try {
            SignalTrigger trigger = trigger(action, Duration.ofMillis(200));
            trigger.onSignal(TerminationSignal.USR1, 10);
            await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
            assertThat(exits).containsExactly(138);
            assertThat(action.events(TriggerEvent.Exiting.class)).singleElement()
                    .satisfies(e -> assertThat(e.actionFinished()).isFalse());
        } finally {
            action.release();
        }
    }

    @Test
    void onSignal_repeatedTermWhileSaving_keepsSavingAndExitsOnceWithFirstStatus() {
        RecordingAction action = RecordingAction.held();
        SignalTrigger trigger = trigger(action, Duration.ofSeconds(20));
        trigger.onSignal(TerminationSignal.TERM, 15);
        trigger.onSignal(TerminationSignal.TERM, 15);
        trigger.onSignal(TerminationSignal.USR2, 12);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(exits::isEmpty);
        action.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> exits.size() == 1);
        assertThat(exits).containsExactly(143);
        assertThat(action.calls()).hasSize(1);
        assertThat(action.events(TriggerEvent.SignalRepeated.class)).hasSize(2).allSatisfy(e -> assertThat(e.exitingNow()).isFalse());
    }

    @Test
    void onSignal_secondInt_exitsAtOnceWith130() {
        RecordingAction action = RecordingAction.held();
        try {
            SignalTrigger trigger = trigger(action, Duration.ofSeconds(20));
            trigger.onSignal(TerminationSignal.INT, 2);
            trigger.onSignal(TerminationSignal.INT, 2);
            assertThat(exits).containsExactly(130);
            assertThat(action.events(TriggerEvent.Exiting.class)).singleElement()
                    .satisfies(e -> assertThat(e.actionFinished()).isFalse());
        } finally {
            action.release();
        }
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> exits.size() == 1);
    }

    @Test
    void onSignal_actionThrows_failureReportedAndStillExits() {
        RecordingAction action = RecordingAction.failing(new UncheckedIOException(new IOException("disk full")));
        SignalTrigger trigger = trigger(action, Duration.ofSeconds(10));
        trigger.onSignal(TerminationSignal.TERM, 15);
        await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
        assertThat(exits).containsExactly(143);
        assertThat(action.events(TriggerEvent.ActionFailed.class)).singleElement()
                .satisfies(e -> assertThat(e.error()).hasRootCauseMessage("disk full"));
        assertThat(action.events(TriggerEvent.Exiting.class).get(0).actionFinished()).isTrue();
    }

    @Test
    void onSignal_duringPreemptionSave_joinsItInsteadOfSavingTwice() {
        RecordingAction action = RecordingAction.held();
        ActionRunner runner = new ActionRunner(action, action, Clock.systemUTC());
        SignalTrigger trigger = trigger(action, runner, Duration.ofSeconds(20));
        Instant now = Instant.now();
        runner.run(new TriggerEvent.PreemptionNoticed(new PreemptionNotice(CloudProvider.AWS, now.plusSeconds(120), "action=terminate"), now),
                now.plusSeconds(115));
        await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
        trigger.onSignal(TerminationSignal.TERM, 15);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(exits::isEmpty);
        action.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
        assertThat(exits).containsExactly(143);
        assertThat(action.calls()).hasSize(1);
    }

    @Test
    void listenerThrows_triggerCarriesOn() {
        RecordingAction action = RecordingAction.immediate();
        SignalTrigger trigger = new SignalTrigger(EnumSet.of(TerminationSignal.TERM), Duration.ofSeconds(10),
                new ActionRunner(action, e -> {
                    throw new IllegalStateException("bad listener");
                }, Clock.systemUTC()), e -> {
                    throw new IllegalStateException("bad listener");
                }, exits::add, Clock.systemUTC());
        trigger.onSignal(TerminationSignal.TERM, 15);
        await().atMost(Duration.ofSeconds(10)).until(() -> !exits.isEmpty());
        assertThat(exits).containsExactly(143);
        assertThat(action.calls()).hasSize(1);
    }
}
