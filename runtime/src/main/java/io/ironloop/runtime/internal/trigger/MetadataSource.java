package io.ironloop.runtime.internal.trigger;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.runtime.trigger.CloudProvider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * One cloud's metadata endpoint: how to ask it whether this instance is being reclaimed, and how to read
 * the answer. Subclasses only build requests and parse responses; the polling loop, the logging and the
 * action live in {@link PreemptionWatcher}.
 *
 * <p>Threading: {@link #poll()} is called from the watcher's single thread only.
 */
abstract class MetadataSource {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY_CHARS = 1 << 16;

    final CloudProvider provider;
    final URI url;
    final Clock clock;
    private final HttpClient http;
    private final Duration requestTimeout;

    MetadataSource(CloudProvider provider, URI url, HttpClient http, Duration requestTimeout, Clock clock) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.url = Objects.requireNonNull(url, "url");
        this.http = Objects.requireNonNull(http, "http");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Asks the endpoint once. */
    abstract PollResult poll() throws InterruptedException;

    /** A request to {@code uri} with this source's timeout. */
    HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(requestTimeout);
    }

    /**
     * Sends a request.
     *
     * @throws IOException when there is no answer (refused, unresolved, timed out)
     */
    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The start of a response body, for log messages. */
    static String excerpt(String body) {
        String oneLine = body.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 200 ? "'" + oneLine + "'" : "'" + oneLine.substring(0, 200) + "...'";
    }

    /** Whether a body is small enough to parse (metadata answers are a few hundred bytes). */
    static boolean plausibleSize(String body) {
        return body.length() <= MAX_BODY_CHARS;
    }

    /** A short description of a failed request. */
    static PollResult.Unreachable unreachable(URI uri, IOException e) {
        return new PollResult.Unreachable(uri + ": " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()));
    }

    @Override
    public String toString() {
        return provider + " " + url;
    }
}
