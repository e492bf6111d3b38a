package io.ironloop.runtime.internal.trigger;

import static io.ironloop.runtime.internal.trigger.WatcherFixture.AWS_TOKEN_PATH;
import static io.ironloop.runtime.internal.trigger.WatcherFixture.AZURE_PATH;
import static io.ironloop.runtime.internal.trigger.WatcherFixture.GCE_PATH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNotice;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PreemptionWatcherTest {

    @Test
    void auto_onlyGceAnswers_watchesGceAloneAndActsOnItsNotice() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger gcePolls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(GCE_PATH, r -> GcePreemptedSourceTest.google(gcePolls.incrementAndGet() <= 4 ? "FALSE" : "TRUE"));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AUTO, server, Duration.ZERO, action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(((io.ironloop.runtime.trigger.TriggerEvent.PreemptionNoticed) action.calls().get(0).cause()).notice().provider())
                    .isEqualTo(CloudProvider.GCE);
            assertThat(server.count("PUT", AWS_TOKEN_PATH)).isEqualTo(1);
            assertThat(server.count("GET", AZURE_PATH)).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void auto_noEndpointAnswers_stopsAfterProbing() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        try (FakeMetadataServer server = new FakeMetadataServer();
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AUTO, server, Duration.ZERO, action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.count("GET", GCE_PATH) == PreemptionWatcher.AUTO_PROBE_POLLS);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                    .until(() -> server.count("GET", GCE_PATH) == PreemptionWatcher.AUTO_PROBE_POLLS);
            assertThat(action.calls()).isEmpty();
        }
    }

    @Test
    void poll_unreachableSeveralTimes_keepsPollingUntilNotice() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        Instant deadline = Instant.parse("2030-01-01T00:00:00Z");
        MetadataSource flaky = new MetadataSource(CloudProvider.AWS, URI.create("http://127.0.0.1:9/x"), HttpClient.newHttpClient(),
                Duration.ofMillis(100), Clock.systemUTC()) {
            @Override
            PollResult poll() {
                return polls.incrementAndGet() <= PreemptionWatcher.SILENT_POLLS_BEFORE_WARNING + 2
                        ? new PollResult.Unreachable("connection refused")
                        : new PollResult.Notice(new PreemptionNotice(CloudProvider.AWS, deadline, "action=stop"));
            }
        };
        try (PreemptionWatcher watcher = new PreemptionWatcher(List.of(flaky), false, Duration.ofMillis(5), Duration.ofSeconds(1),
                new ActionRunner(action, action, Clock.systemUTC()), action, Clock.systemUTC())) {
            watcher.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(action.calls().get(0).deadline()).isEqualTo(deadline.minusSeconds(1));
            assertThat(polls.get()).isEqualTo(PreemptionWatcher.SILENT_POLLS_BEFORE_WARNING + 3);
        }
    }
}
