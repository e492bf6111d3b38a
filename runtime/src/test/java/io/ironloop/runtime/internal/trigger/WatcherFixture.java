package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TriggerOptions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;

/** Starts a {@link PreemptionWatcher} against a fake metadata server with fast polling. */
final class WatcherFixture {
    static final Duration INTERVAL = Duration.ofMillis(20);

    private WatcherFixture() {
    }

    static PreemptionWatcher start(PreemptionNoticeSource source, URI aws, URI gce, URI azure, Duration margin,
                                   RecordingAction action, Clock clock) {
        TriggerOptions options = TriggerOptions.builder().preemption(source).awsUrl(aws).gceUrl(gce).azureUrl(azure)
                .pollInterval(INTERVAL).preemptionMargin(margin).build();
        PreemptionWatcher watcher = PreemptionWatcher.create(options, new ActionRunner(action, action, clock), action, clock);
        watcher.start();
        return watcher;
    }

    static PreemptionWatcher start(PreemptionNoticeSource source, FakeMetadataServer server, Duration margin,
                                   RecordingAction action, Clock clock) {
        return start(source, server.uri(AWS_PATH), server.uri(GCE_PATH), server.uri(AZURE_PATH), margin, action, clock);
    }

    static final String AWS_PATH = "/latest/meta-data/spot/instance-action";
    static final String AWS_TOKEN_PATH = "/latest/api/token";
    static final String GCE_PATH = "/computeMetadata/v1/instance/preempted";
    static final String AZURE_PATH = "/metadata/scheduledevents";
}
