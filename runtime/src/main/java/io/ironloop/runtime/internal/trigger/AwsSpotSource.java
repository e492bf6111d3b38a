package io.ironloop.runtime.internal.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.ironloop.runtime.trigger.CloudProvider;
import io.ironloop.runtime.trigger.PreemptionNotice;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * AWS EC2 spot instance-action through IMDSv2: {@code PUT /latest/api/token} with
 * {@code X-aws-ec2-metadata-token-ttl-seconds} yields a session token, then
 * {@code GET .../spot/instance-action} with {@code X-aws-ec2-metadata-token} answers 404 until Amazon plans
 * to stop or terminate the instance, and then {@code {"action": "terminate", "time": "2017-09-18T08:22:00Z"}}
 * ({@code action} may also be {@code stop} or {@code hibernate}). The token is kept until shortly before its
 * TTL ends; a 401 (token expired or revoked) fetches a new one and asks again within the same poll.
 */
final class AwsSpotSource extends MetadataSource {
    static final String TOKEN_PATH = "/latest/api/token";
    static final String TOKEN_TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";
    static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";
    static final Duration TOKEN_TTL = Duration.ofHours(6);

    private final URI tokenUrl;
    private String token;
    private Instant tokenRenewal = Instant.MIN;

    AwsSpotSource(URI url, HttpClient http, Duration requestTimeout, Clock clock) {
        super(CloudProvider.AWS, url, http, requestTimeout, clock);
        this.tokenUrl = url.resolve(TOKEN_PATH);
    }

    @Override
    PollResult poll() throws InterruptedException {
        PollResult failure = ensureToken();
        if (failure != null) {
            return failure;
        }
        try {
            HttpResponse<String> response = getInstanceAction();
            if (response.statusCode() == 401) {
                token = null;
                failure = ensureToken();
                if (failure != null) {
                    return failure;
                }
                response = getInstanceAction();
                if (response.statusCode() == 401) {
                    token = null;
                    return new PollResult.Unrecognised(url + " answered 401 even with a fresh IMDSv2 token");
                }
            }
            return interpret(response);
        } catch (IOException e) {
            return unreachable(url, e);
        }
    }

    private HttpResponse<String> getInstanceAction() throws IOException, InterruptedException {
        return send(request(url).header(TOKEN_HEADER, token).GET().build());
    }

    /** Fetches a token when there is none or it is about to expire; returns null on success. */
    private PollResult ensureToken() throws InterruptedException {
        Instant now = clock.instant();
        if (token != null && now.isBefore(tokenRenewal)) {
            return null;
        }
        HttpRequest put = request(tokenUrl).header(TOKEN_TTL_HEADER, Long.toString(TOKEN_TTL.toSeconds()))
                .PUT(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try {
            response = send(put);
        } catch (IOException e) {
            return unreachable(tokenUrl, e);
        }
        String body = response.body().trim();
        if (response.statusCode() != 200 || body.isEmpty() || !plausibleSize(body)) {
            return new PollResult.Unrecognised("IMDSv2 token request " + tokenUrl + " answered HTTP " + response.statusCode()
                    + " " + excerpt(body) + ": is this an EC2 instance with IMDSv2 enabled?");
        }
        token = body;
        tokenRenewal = now.plus(TOKEN_TTL).minus(Duration.ofMinutes(5));
        return null;
    }

    private PollResult interpret(HttpResponse<String> response) {
        String body = response.body();
        if (response.statusCode() == 404) {
            return new PollResult.Quiet();
        }
        if (response.statusCode() != 200 || !plausibleSize(body)) {
            return new PollResult.Unrecognised(url + " answered HTTP " + response.statusCode() + " " + excerpt(body));
        }
        try {
            JsonNode root = JSON.readTree(body);
            JsonNode action = root == null ? null : root.get("action");
            JsonNode time = root == null ? null : root.get("time");
            if (action == null || !action.isTextual() || time == null || !time.isTextual()) {
                return new PollResult.Unrecognised(url + " answered without text fields action and time: " + excerpt(body));
            }
            Instant deadline = Instant.parse(time.asText().trim());
            return new PollResult.Notice(new PreemptionNotice(CloudProvider.AWS, deadline, "action=" + action.asText()));
        } catch (JsonProcessingException e) {
            return new PollResult.Unrecognised(url + " answered malformed JSON " + excerpt(body) + ": " + e.getOriginalMessage());
        } catch (DateTimeParseException e) {
            return new PollResult.Unrecognised(url + " answered a time that is not ISO-8601 UTC: " + excerpt(body));
        }
    }
}
