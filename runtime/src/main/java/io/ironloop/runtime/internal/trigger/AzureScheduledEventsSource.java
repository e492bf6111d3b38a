package io.ironloop.runtime.internal.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNotice;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * Azure scheduled events: {@code GET} with {@code Metadata: true} answers
 * {@code {"DocumentIncarnation": n, "Events": [...]}}; an event whose {@code EventType} is {@code Preempt}
 * (spot eviction, at least 30 s ahead) or {@code Terminate} announces reclamation at {@code NotBefore}, an
 * RFC 1123 time such as {@code Mon, 19 Sep 2016 18:29:47 GMT}, or now when {@code NotBefore} is empty (the
 * event has started). With several such events the earliest counts. Other types (Freeze, Reboot, Redeploy)
 * are ignored. Events are not acknowledged: the platform proceeds at {@code NotBefore} anyway.
 *
 * <p>An availability set's events reach every VM in it, so an event for another VM also triggers a save
 * here: a spare save costs little, a missed one loses work.
 */
final class AzureScheduledEventsSource extends MetadataSource {
    static final String METADATA_HEADER = "Metadata";
    private static final Set<String> RECLAIMING = Set.of("Preempt", "Terminate");

    AzureScheduledEventsSource(URI url, HttpClient http, Duration requestTimeout, Clock clock) {
        super(CloudProvider.AZURE, url, http, requestTimeout, clock);
    }

    @Override
    PollResult poll() throws InterruptedException {
        HttpResponse<String> response;
        try {
            response = send(request(url).header(METADATA_HEADER, "true").GET().build());
        } catch (IOException e) {
            return unreachable(url, e);
        }
        String body = response.body();
        if (response.statusCode() != 200 || !plausibleSize(body)) {
            return new PollResult.Unrecognised(url + " answered HTTP " + response.statusCode() + " " + excerpt(body));
        }
        try {
            return interpret(JSON.readTree(body), body);
        } catch (JsonProcessingException e) {
            return new PollResult.Unrecognised(url + " answered malformed JSON " + excerpt(body) + ": " + e.getOriginalMessage());
        }
    }

    private PollResult interpret(JsonNode root, String body) {
        JsonNode events = root == null ? null : root.get("Events");
        if (events == null || !events.isArray()) {
            return new PollResult.Unrecognised(url + " answered JSON without an Events array: " + excerpt(body));
        }
        Instant earliest = null;
        String detail = null;
        for (JsonNode event : events) {
            String type = event.path("EventType").asText("");
            if (!RECLAIMING.contains(type)) {
                continue;
            }
            String notBefore = event.path("NotBefore").asText("").trim();
            Instant deadline;
            try {
                deadline = notBefore.isEmpty() ? clock.instant()
                        : ZonedDateTime.parse(notBefore, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e) {
                return new PollResult.Unrecognised(url + " answered a " + type + " event whose NotBefore '" + notBefore
                        + "' is not an RFC 1123 time");
            }
            if (earliest == null || deadline.isBefore(earliest)) {
                earliest = deadline;
                detail = "EventType=" + type + " EventId=" + event.path("EventId").asText("?") + " EventStatus="
                        + event.path("EventStatus").asText("?") + " DocumentIncarnation=" + root.path("DocumentIncarnation").asText("?");
            }
        }
        return earliest == null ? new PollResult.Quiet()
                : new PollResult.Notice(new PreemptionNotice(CloudProvider.AZURE, earliest, detail));
    }
}
