package io.ironloop.runtime.internal.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.ironloop.ConfigurationException;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The one way Ironloop builds a meter registry and serves it to Prometheus: a registry with common tags, and an
 * HTTP endpoint at {@code http://HOST:PORT}{@value #PATH} in Prometheus' text format. Used by every rank
 * ({@link RankMetrics}) and by the launcher ({@code ironloop run --metrics-port}).
 *
 * <p>Threading: scrapes are served on one daemon thread; {@link #close()} stops it.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** The path of the endpoint. */
    public static final String PATH = "/metrics";

    private final PrometheusMeterRegistry registry;
    private final HttpServer server;
    private final ExecutorService serving;

    private PrometheusEndpoint(PrometheusMeterRegistry registry, HttpServer server) {
        this.registry = registry;
        this.server = server;
        server.createContext(PATH, this::scrape);
        serving = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(serving);
        server.start();
    }

    /**
     * A registry for Prometheus whose every meter carries the given tags.
     *
     * @param tags alternating tag names and values, e.g. {@code "job", id}
     * @return the registry
     */
    public static PrometheusMeterRegistry registry(String... tags) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags(tags);
        return registry;
    }

    /**
     * Serves a registry on every interface.
     *
     * @param registry what to serve
     * @param port the port, 0 for one the kernel chooses
     * @param setting what chose the port and how to choose another, for the message of a port that is taken (e.g.
     *     {@code "METRICS_PORT plus the world rank"})
     * @return the running endpoint
     * @throws ConfigurationException if the port is taken or cannot be bound
     */
    public static PrometheusEndpoint serve(PrometheusMeterRegistry registry, int port, String setting) {
        Objects.requireNonNull(registry, "registry");
        try {
            return new PrometheusEndpoint(registry, HttpServer.create(new InetSocketAddress(port), 0));
        } catch (BindException e) {
            throw new ConfigurationException("the metrics endpoint cannot listen on port " + port + " (" + setting + "): "
                    + e.getMessage() + "; choose another port, or 0 for one the kernel chooses", e);
        } catch (IOException e) {
            throw new UncheckedIOException("the metrics endpoint could not start on port " + port, e);
        }
    }

    /** Where the endpoint listens (the wildcard address: every interface). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * An address to scrape the endpoint at, for logs: {@code http://HOST:PORT/metrics} with this machine's host
     * name (the endpoint listens on every interface; the wildcard address it is bound to is no address to give a
     * scraper), or {@code localhost} when the host name does not resolve.
     */
    public String url() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return "http://" + host + ":" + address().getPort() + PATH;
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops serving; the registry stays readable. */
    @Override
    public void close() {
        server.stop(0);
        serving.shutdownNow();
    }
}
