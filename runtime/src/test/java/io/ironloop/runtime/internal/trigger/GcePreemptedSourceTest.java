package io.ironloop.runtime.internal.trigger;

import static io.ironloop.runtime.internal.trigger.WatcherFixture.GCE_PATH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.runtime.internal.trigger.FakeMetadataServer.Reply;
import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerEvent;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GcePreemptedSourceTest {
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    static Reply google(String body) {
        return new Reply(200, body, Map.of("Metadata-Flavor", "Google"));
    }

    @Test
    void poll_false_noActionAndFlavorHeaderSent() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        try (FakeMetadataServer server = new FakeMetadataServer().route(GCE_PATH, r -> google("FALSE"));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.GCE, server, Duration.ZERO, action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.count("GET", GCE_PATH) >= 5);
            assertThat(action.calls()).isEmpty();
            assertThat(server.requests()).allSatisfy(r -> assertThat(r.header("Metadata-Flavor")).isEqualTo("Google"));
        }
    }

    @Test
    void poll_trueAfterSomePolls_actionOnceThirtySecondsAfterDetectionMinusMargin() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(GCE_PATH, r -> google(polls.incrementAndGet() <= 3 ? "FALSE" : "TRUE"));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.GCE, server, Duration.ofSeconds(5), action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.events(TriggerEvent.ActionCompleted.class).size() == 1);
            watcher.close();
            assertThat(action.calls()).singleElement().satisfies(call -> {
                assertThat(call.deadline()).isEqualTo(NOW.plusSeconds(25));
                TriggerEvent.PreemptionNoticed noticed = (TriggerEvent.PreemptionNoticed) call.cause();
                assertThat(noticed.notice().provider()).isEqualTo(CloudProvider.GCE);
                assertThat(noticed.notice().deadline()).isEqualTo(NOW.plusSeconds(30));
            });
            assertThat(polls.get()).isEqualTo(4);
        }
    }

    @Test
    void poll_answerWithoutFlavorHeader_unrecognised() throws Exception {
        try (FakeMetadataServer server = new FakeMetadataServer().route(GCE_PATH, r -> Reply.of(200, "TRUE"))) {
            GcePreemptedSource source = new GcePreemptedSource(server.uri(GCE_PATH), HttpClient.newHttpClient(), Duration.ofSeconds(2), CLOCK);
            assertThat(source.poll()).isInstanceOf(PollResult.Unrecognised.class);
        }
    }

    @Test
    void poll_unexpectedBody_unrecognisedAndNotFatal() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(GCE_PATH, r -> google(polls.incrementAndGet() <= 2 ? "MAYBE" : "TRUE"));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.GCE, server, Duration.ZERO, action, CLOCK)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(action.calls().get(0).deadline()).isEqualTo(NOW.plusSeconds(30));
        }
    }
}
