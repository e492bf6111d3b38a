package io.ironloop.runtime.internal.trigger;

import static io.ironloop.runtime.internal.trigger.WatcherFixture.AWS_PATH;
import static io.ironloop.runtime.internal.trigger.WatcherFixture.AWS_TOKEN_PATH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ironloop.runtime.internal.trigger.FakeMetadataServer.Reply;
import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwsSpotSourceTest {
    private static final String NOTICE = "{\"action\": \"terminate\", \"time\": \"2017-09-18T08:22:00Z\"}";

    @Test
    void poll_noNotice_noActionAndEveryGetCarriesTheToken() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(AWS_TOKEN_PATH, r -> Reply.of(200, "token-1"))
                .route(AWS_PATH, r -> Reply.of(404, ""));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AWS, server, Duration.ZERO, action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.count("GET", AWS_PATH) >= 5);
            assertThat(action.calls()).isEmpty();
            assertThat(server.requests()).filteredOn(r -> r.method().equals("GET"))
                    .allSatisfy(r -> assertThat(r.header("X-aws-ec2-metadata-token")).isEqualTo("token-1"));
            assertThat(server.requests()).filteredOn(r -> r.method().equals("PUT"))
                    .hasSize(1)
                    .allSatisfy(r -> assertThat(r.header("X-aws-ec2-metadata-token-ttl-seconds")).isEqualTo("21600"));
        }
    }

    @Test
    void poll_noticeAfterSomePolls_actionOnceWithTimeMinusMargin() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(AWS_TOKEN_PATH, r -> Reply.of(200, "t"))
                .route(AWS_PATH, r -> polls.incrementAndGet() <= 3 ? Reply.of(404, "") : Reply.of(200, NOTICE));
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AWS, server, Duration.ofSeconds(5), action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.events(TriggerEvent.ActionCompleted.class).size() == 1);
            watcher.close();
            assertThat(action.calls()).hasSize(1);
            RecordingAction.Call call = action.calls().get(0);
            assertThat(call.deadline()).isEqualTo(Instant.parse("2017-09-18T08:21:55Z"));
            TriggerEvent.PreemptionNoticed noticed = (TriggerEvent.PreemptionNoticed) call.cause();
            assertThat(noticed.notice().provider()).isEqualTo(CloudProvider.AWS);
            assertThat(noticed.notice().deadline()).isEqualTo(Instant.parse("2017-09-18T08:22:00Z"));
            assertThat(noticed.notice().detail()).isEqualTo("action=terminate");
            assertThat(polls.get()).isEqualTo(4);
        }
    }

    @Test
    void poll_tokenRejectedWith401_fetchesNewTokenAndCarriesOn() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger tokens = new AtomicInteger();
        AtomicInteger validPolls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(AWS_TOKEN_PATH, r -> Reply.of(200, "token-" + tokens.incrementAndGet()))
                .route(AWS_PATH, r -> {
                    if (!"token-2".equals(r.header("X-aws-ec2-metadata-token"))) {
                        return Reply.of(401, "");
                    }
                    return validPolls.incrementAndGet() <= 2 ? Reply.of(404, "") : Reply.of(200, NOTICE);
                });
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AWS, server, Duration.ZERO, action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(server.count("PUT", AWS_TOKEN_PATH)).isEqualTo(2);
            assertThat(action.calls().get(0).deadline()).isEqualTo(Instant.parse("2017-09-18T08:22:00Z"));
        }
    }

    @Test
    void poll_malformedJson_loggedAndPollingContinues() throws Exception {
        RecordingAction action = RecordingAction.immediate();
        AtomicInteger polls = new AtomicInteger();
        try (FakeMetadataServer server = new FakeMetadataServer()
                .route(AWS_TOKEN_PATH, r -> Reply.of(200, "t"))
                .route(AWS_PATH, r -> {
                    int n = polls.incrementAndGet();
                    return n <= 2 ? Reply.of(200, "{\"action\": \"terminate\", \"time\": ") : n <= 4
                            ? Reply.of(200, "{\"action\": \"terminate\", \"time\": \"soon\"}") : Reply.of(200, NOTICE);
                });
             PreemptionWatcher watcher = WatcherFixture.start(PreemptionNoticeSource.AWS, server, Duration.ZERO, action, Clock.systemUTC())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> action.calls().size() == 1);
            assertThat(polls.get()).isEqualTo(5);
        }
    }

    @Test
    void poll_nothingListening_reportsUnreachable() throws Exception {
        java.net.URI closed;
        try (FakeMetadataServer server = new FakeMetadataServer()) {
            closed = server.uri(AWS_PATH);
        }
        AwsSpotSource source = new AwsSpotSource(closed, java.net.http.HttpClient.newHttpClient(), Duration.ofMillis(500), Clock.systemUTC());
        assertThat(source.poll()).isInstanceOf(PollResult.Unreachable.class);
    }
}
