package io.ironloop.runtime.internal.trigger;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A cloud metadata server on an ephemeral loopback port: routes by path, records every request. */
final class FakeMetadataServer implements AutoCloseable {

    /** A canned answer. */
    record Reply(int status, String body, Map<String, String> headers) {
        static Reply of(int status, String body) {
            return new Reply(status, body, Map.of());
        }
    }

    /** A request the server received. */
    record Request(String method, String path, Headers headers) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    private final HttpServer server;
    private final Map<String, Function<Request, Reply>> routes = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeMetadataServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers requests for {@code path} with {@code route}; unrouted paths answer 404. */
    FakeMetadataServer route(String path, Function<Request, Reply> route) {
        routes.put(path, route);
        return this;
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery);
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    long count(String method, String path) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), exchange.getRequestHeaders());
            requests.add(request);
            exchange.getRequestBody().readAllBytes();
            Function<Request, Reply> route = routes.get(request.path());
            Reply reply = route == null ? Reply.of(404, "") : route.apply(request);
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
