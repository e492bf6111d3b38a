package io.ironloop.launcher.rank;

import io.ironloop.runtime.event.RuntimeEvent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.ironloop.runtime.event.RuntimeEvent.RecoverySource;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;

/** The launcher's control protocol as the runtime's typed events become it: names and fields are a contract. */
class LauncherEventsTest {
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final AtomicInteger rank = new AtomicInteger(0);
    private final AtomicLong nanos = new AtomicLong();
    private final LauncherEvents subscriber = new LauncherEvents(LauncherLink.recording(sent::add), rank::get, nanos::get);

    @Test
    void eventsOfTheRestartPath_keepTheirNamesAndFields() {
        subscriber.accept(new RuntimeEvent.IterationStarted(3));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.GLOBAL, 3, RuntimeEvent.Saved.DISK, Duration.ZERO, Duration.ofMillis(20), 4096));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.GLOBAL, 3, RuntimeEvent.Saved.DISK_COPY, Duration.ZERO, Duration.ofMillis(5), 4096));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.LOCAL, 3, RuntimeEvent.Saved.DISK, Duration.ZERO, Duration.ofMillis(1), 100));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.GLOBAL, 3, "shared", Duration.ZERO, Duration.ZERO, 4096));
        subscriber.accept(new RuntimeEvent.Restored(StateKind.GLOBAL, 2));
        subscriber.accept(new RuntimeEvent.Restored(StateKind.LOCAL, 2));
        subscriber.accept(new RuntimeEvent.FailureDetected(Set.of(3, 1)));
        subscriber.accept(new RuntimeEvent.TriggerFired("SignalReceived[signal=TERM]", "2024-01-01T00:00:00Z"));
        subscriber.accept(new RuntimeEvent.SettingsChanged("aa", "bb"));
        subscriber.accept(new RuntimeEvent.AlreadyComplete("/data"));
        subscriber.accept(new RuntimeEvent.Completed(9));

        assertThat(sent).containsExactly(
                "{\"type\":\"iteration\",\"iteration\":3}",
                "{\"type\":\"saved\",\"iteration\":3,\"level\":\"global\",\"blocking_s\":0.02,\"bytes\":4096}",
                "{\"type\":\"saved\",\"iteration\":3,\"level\":\"global-copy\",\"blocking_s\":0.005,\"bytes\":4096}",
                "{\"type\":\"saved\",\"iteration\":3,\"level\":\"local\",\"blocking_s\":0.001,\"bytes\":100}",
                "{\"type\":\"saved\",\"iteration\":3,\"level\":\"global-shared\",\"blocking_s\":0.0,\"bytes\":4096}",
                "{\"type\":\"restored\",\"iteration\":2}",
                "{\"type\":\"restored-local\",\"iteration\":2}",
                "{\"type\":\"detected\",\"failed\":[1,3]}",
                "{\"type\":\"trigger\",\"cause\":\"SignalReceived[signal=TERM]\",\"deadline\":\"2024-01-01T00:00:00Z\"}",
                "{\"type\":\"settings-changed\",\"saved\":\"aa\",\"current\":\"bb\"}",
                "{\"type\":\"already-complete\",\"folder\":\"/data\"}",
                "{\"type\":\"complete\",\"iteration\":9}");
    }

    @Test
    void eventsOfTheOnlinePath_keepTheirNamesAndFields() {
        subscriber.accept(new RuntimeEvent.OnlineProtection(List.of("memory", "partner", "disk"), 5, 1));
        subscriber.accept(new RuntimeEvent.GroupShrunk(Set.of(2), 4, 3, Duration.ofMillis(250)));
        subscriber.accept(new RuntimeEvent.RecoveredOnline(Set.of(2), 7, RecoverySource.MEMORY, 1, Duration.ofMillis(1500),
                Duration.ofMillis(250), Duration.ofMillis(100), Duration.ofMillis(50)));
        subscriber.accept(new RuntimeEvent.RecoveryImpossible(Set.of(0, 2), "ranks 0 and 2 held each other's copies"));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.BLOCKS, 8, RuntimeEvent.Saved.DISK, Duration.ZERO, Duration.ZERO, 9000));

        assertThat(sent).containsExactly(
                "{\"type\":\"protection\",\"online\":true}",
                "{\"type\":\"shrunk\",\"lost\":[2],\"size\":3,\"shrink_s\":0.25}",
                "{\"type\":\"recovered\",\"lost\":[2],\"iteration\":7,\"source\":\"memory\",\"spares\":1,\"detect_s\":1.5,"
                        + "\"shrink_s\":0.25,\"restore_s\":0.1,\"rebalance_s\":0.05}",
                "{\"type\":\"recovery-impossible\",\"lost\":[0,2],\"reason\":\"ranks 0 and 2 held each other's copies\"}",
                "{\"type\":\"saved\",\"iteration\":8,\"level\":\"disk\",\"blocking_s\":0.0,\"bytes\":9000}");
    }

    @Test
    void inMemorySnapshots_firstAtOnce_thenSummedAtMostOnceASecond_pendingSentBeforeOtherMessages() {
        memory(2);
        nanos.set(300_000_000L);
        memory(4);
        subscriber.accept(new RuntimeEvent.IterationStarted(5)); // 0.3 s after the last message: the snapshot of 4 waits
        memory(6);
        nanos.set(1_000_000_000L);
        memory(8); // 1 s after the last message: 4, 6 and 8 go together
        memory(10);
        subscriber.accept(new RuntimeEvent.Saved(StateKind.BLOCKS, 10, RuntimeEvent.Saved.DISK, Duration.ZERO, Duration.ZERO, 9000));

        assertThat(sent).containsExactly(
                "{\"type\":\"saved\",\"iteration\":2,\"level\":\"memory\",\"blocking_s\":0.002,\"bytes\":1000}",
                "{\"type\":\"iteration\",\"iteration\":5}",
                "{\"type\":\"saved\",\"iteration\":8,\"level\":\"memory\",\"blocking_s\":0.006,\"bytes\":3000,\"saves\":3}",
                "{\"type\":\"saved\",\"iteration\":10,\"level\":\"memory\",\"blocking_s\":0.002,\"bytes\":1000}",
                "{\"type\":\"saved\",\"iteration\":10,\"level\":\"disk\",\"blocking_s\":0.0,\"bytes\":9000}");
    }

    /** A block loop's snapshot as it publishes it: captured, agreed, then saved in memory. */
    private void memory(long iteration) {
        subscriber.accept(new RuntimeEvent.Snapshotted(StateKind.BLOCKS, iteration, Duration.ofMillis(1), 1000));
        subscriber.accept(new RuntimeEvent.Handshake(iteration, true, Duration.ofMillis(1)));
        subscriber.accept(new RuntimeEvent.Saved(StateKind.BLOCKS, iteration, RuntimeEvent.Saved.MEMORY, Duration.ZERO,
                Duration.ofMillis(2), 1000));
    }

    @Test
    void protectorMoved_keepsItsNameAndFields() {
        subscriber.accept(new RuntimeEvent.ProtectorMoved("site-0", "127.0.0.1:4001", "127.0.0.1:4007", 2, "127.0.0.1:4003", "rank-00001", 35));

        assertThat(sent).containsExactly("{\"type\":\"site-protector-moved\",\"site\":\"site-0\",\"from\":\"127.0.0.1:4001\","
                + "\"to\":\"127.0.0.1:4007\",\"table_version\":2,\"asked\":\"127.0.0.1:4003\",\"series\":\"rank-00001\",\"iteration\":35}");
    }

    @Test
    void recoveredOnline_isReportedOnlyByRankZeroOfTheShrunkGroup() {
        rank.set(1);
        subscriber.accept(new RuntimeEvent.RecoveredOnline(Set.of(0), 7, RecoverySource.DISK, 0, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, Duration.ZERO));

        assertThat(sent).isEmpty();
    }

    @Test
    void eventsTheLauncherHasNoUseFor_areNotSent() {
        subscriber.accept(new RuntimeEvent.Snapshotted(StateKind.GLOBAL, 1, Duration.ZERO, 8));
        subscriber.accept(new RuntimeEvent.FailureSaved(Set.of(1)));
        subscriber.accept(new RuntimeEvent.TriggerSaved("TERM"));

        assertThat(sent).isEmpty();
    }
}
