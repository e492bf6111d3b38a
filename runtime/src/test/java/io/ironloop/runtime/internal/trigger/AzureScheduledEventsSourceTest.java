package io.ironloop.runtime.internal.trigger;

import static io.ironloop.runtime.internal.trigger.WatcherFixture.AZURE_PATH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.runtime.internal.trigger.FakeMetadataServer.Reply;
import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AzureScheduledEventsSourceTest {
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String EMPTY = "{\"DocumentIncarnation\": 1, \"Events\": []}";
    private static final String FREEZE = "{\"DocumentIncarnation\": 2, \"Events\": [{\"EventId\": \"f-1\", \"EventType\": \"Freeze\","
            + " \"ResourceType\": \"VirtualMachine\", \"Resources\": [\"vm0\"], \"EventStatus\": \"Scheduled\","
            + " \"NotBefore\": \"Mon, 19 Sep 2016 18:20:00 GMT\", \"Description\": \"\", \"EventSource\": \"Platform\", \"DurationInSeconds\": 5}]}";
    private static final String PREEMPT = "{\"DocumentIncarnation\": 3, \"Events\": [{\"EventId\": \"602d9444-d2cd-49c7-8624-8643e7171297\","
            + " \"EventType\": \"Preempt\", \"ResourceType\": \"VirtualMachine\", \"Resources\": [\"vm0\"], \"EventStatus\": \"Scheduled\","
            + " \"NotBefore\": \"Mon, 19 Sep 2016 18:29:47 GMT\", \"Description\": \"\", \"EventSource\": \"Platform\", \"DurationInSeconds\": -1}]}";
    private static final String STARTED = "{\"DocumentIncarnation\": 4, \"Events\": [{\"EventId\": \"t-1\", \"EventType\": \"Terminate\","
            + " \"EventStatus\": \"Started\", \"NotBefore\": \"\"}]}";

    @Test
    void poll_noEvents_noActionAndMetadataHeaderSent() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        try (FakeMetadataServer server = new FakeMetadataServer().route(AZURE_PATH, r -> Reply.of(200, EMPTY));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AZURE, server, Duration.ZERO, action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.count("GET", AZURE_PATH) >= 5);
            assertThat(action.calls()).isEmpty();
            assertThat(server.requests()).allSatisfy(r -> assertThat(r.header("Metadata")).isEqualTo("true"));
        }
    }

    @Test
    void poll_freezeThenPreempt_actionOnceAtNotBeforeMinusMargin() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer().route(AZURE_PATH, r -> {
                 int n = polls.incrementAndGet();
                 return Reply.of(200, n <= 2 ? EMPTY : n <= 4 ? FREEZE : PREEMPT);
             });
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AZURE, server, Duration.ofSeconds(5), action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.events(TriggerEvent.ActionCompleted.class).size() == 1);
            watcher.close();
            assertThat(polls.get()).isEqualTo(5);
            assertThat(action.calls()).singleElement().satisfies(call -> {
                assertThat(call.deadline()).isEqualTo(Instant.parse("2016-09-19T18:29:42Z"));
                TriggerEvent.PreemptionNoticed noticed = (TriggerEvent.PreemptionNoticed) call.cause();
                assertThat(noticed.notice().provider()).isEqualTo(CloudProvider.AZURE);
                assertThat(noticed.notice().deadline()).isEqualTo(Instant.parse("2016-09-19T18:29:47Z"));
                assertThat(noticed.notice().detail()).contains("EventType=Preempt", "602d9444-d2cd-49c7-8624-8643e7171297");
            });
        }
    }

    @Test
    void poll_startedTerminateWithoutNotBefore_deadlineIsNow() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        try (FakeMetadataServer server = new FakeMetadataServer().route(AZURE_PATH, r -> Reply.of(200, STARTED));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AZURE, server, Duration.ZERO, action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(action.calls().get(0).deadline()).isEqualTo(NOW);
        }
    }

    @Test
    void poll_malformedJsonAndMissingEvents_loggedAndPollingContinues() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer().route(AZURE_PATH, r -> {
                 int n = polls.incrementAndGet();
                 return n <= 2 ? Reply.of(200, "{\"Events\": [") : n <= 4 ? Reply.of(200, "{\"DocumentIncarnation\": 1}")
                         : Reply.of(200, PREEMPT);
             });
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AZURE, server, Duration.ZERO, action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(polls.get()).isEqualTo(5);
        }
    }
}
