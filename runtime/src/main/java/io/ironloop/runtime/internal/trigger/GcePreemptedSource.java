package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNotice;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Google Compute Engine's {@code instance/preempted}: {@code GET} with {@code Metadata-Flavor: Google}
 * answers {@code FALSE}, and {@code TRUE} once the VM is being preempted. The answer carries no time; GCE
 * documents 30 s between the preemption notice and the hard stop, so the deadline is the detection time
 * plus {@link #NOTICE_PERIOD}. A real metadata server echoes {@code Metadata-Flavor: Google} in its
 * response, which tells it apart from other servers at the same address.
 */
final class GcePreemptedSource extends MetadataSource {
    static final String FLAVOR_HEADER = "Metadata-Flavor";
    static final String FLAVOR = "Google";
    static final Duration NOTICE_PERIOD = Duration.ofSeconds(30);

    GcePreemptedSource(URI url, HttpClient http, Duration requestTimeout, Clock clock) {
        super(CloudProvider.GCE, url, http, requestTimeout, clock);
    }

    @Override
    PollResult poll() throws InterruptedException {
        HttpResponse<String> response;
        try {
            response = send(request(url).header(FLAVOR_HEADER, FLAVOR).GET().build());
        } catch (IOException e) {
            return unreachable(url, e);
        }
        String body = response.body();
        Optional<String> flavor = response.headers().firstValue(FLAVOR_HEADER);
        if (response.statusCode() != 200 || flavor.isEmpty() || !FLAVOR.equalsIgnoreCase(flavor.get()) || !plausibleSize(body)) {
            return new PollResult.Unrecognised(url + " answered HTTP " + response.statusCode() + " with " + FLAVOR_HEADER + " "
                    + flavor.orElse("absent") + " " + excerpt(body) + "; a GCE metadata server answers 200 with Metadata-Flavor: Google");
        }
        switch (body.trim().toUpperCase(Locale.ROOT)) {
            case "FALSE":
                return new PollResult.Quiet();
            case "TRUE":
                return new PollResult.Notice(new PreemptionNotice(CloudProvider.GCE, clock.instant().plus(NOTICE_PERIOD),
                        "preempted=TRUE (deadline = detection + " + NOTICE_PERIOD.toSeconds() + " s)"));
            default:
                return new PollResult.Unrecognised(url + " answered neither TRUE nor FALSE: " + excerpt(body));
        }
    }
}
