package io.ironloop.cli.view;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ironloop.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The dashboard's HTTP server: one self-contained page (inline CSS and JavaScript, nothing from elsewhere) that
 * shows a {@link RunState} and, while the run goes on, polls it once a second. Listens on loopback only (reach it
 * from elsewhere through {@code ssh -L}).
 *
 * <table>
 *   <caption>paths</caption>
 *   <tr><th>path</th><th>content</th></tr>
 *   <tr><td>{@code /}</td><td>the page, with the state and the timeline of the moment inlined (it renders without
 *       JavaScript's first fetch)</td></tr>
 *   <tr><td>{@code /state.json}</td><td>{@link RunState#json()}</td></tr>
 *   <tr><td>{@code /timeline.svg}</td><td>{@link RunState#svg()}</td></tr>
 * </table>
 *
 * <p>Threading: requests are served on one daemon thread; {@link #close()} stops it.
 */
public final class DashboardServer implements AutoCloseable {
    private static final String PAGE = page();

    private final Supplier<RunState> state;
    private final HttpServer server;
    private final ExecutorService serving;

    private DashboardServer(Supplier<RunState> state, HttpServer server) {
        this.state = state;
        this.server = server;
        this.serving = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-dashboard");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/", this::serve);
        server.setExecutor(serving);
        server.start();
    }

    /**
     * Starts serving a run's state.
     *
     * @param state what to show, asked for at every request (a live run's state, or a file's as it is now)
     * @param port the port on loopback, 0 for one the kernel chooses
     * @return the running server
     * @throws ConfigurationException if the port is taken or out of range
     */
    public static DashboardServer start(Supplier<RunState> state, int port) {
        if (port < 0 || port > 65535) {
            throw new ConfigurationException("dashboard port " + port + " is out of range: give 1-65535, or 0 for a port the"
                    + " kernel chooses");
        }
        try {
            return new DashboardServer(state, HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0));
        } catch (BindException e) {
            throw new ConfigurationException("the dashboard cannot listen on port " + port + ": " + e.getMessage()
                    + "; choose another port, or 0 for one the kernel chooses", e);
        } catch (IOException e) {
            throw new UncheckedIOException("the dashboard could not start on port " + port, e);
        }
    }

    /** The page's address, {@code http://127.0.0.1:PORT/}. */
    public URI uri() {
        InetSocketAddress a = server.getAddress();
        return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/");
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String path = exchange.getRequestURI().getPath();
            RunState run;
            try {
                run = state.get();
            } catch (RuntimeException e) {
                send(exchange, 500, "text/plain; charset=utf-8", "ironloop dashboard: " + e.getMessage() + "\n");
                return;
            }
            switch (path) {
                case "/", "/index.html" -> send(exchange, "text/html; charset=utf-8", PAGE
                        .replace("/*STATE*/", run.json().replace("</", "<\\/"))
                        .replace("<!--SVG-->", run.svg()));
                case "/state.json" -> send(exchange, "application/json", run.json());
                case "/timeline.svg" -> send(exchange, "image/svg+xml", run.svg());
                default -> exchange.sendResponseHeaders(404, -1);
            }
        }
    }

    private static void send(HttpExchange exchange, String type, String body) throws IOException {
        send(exchange, 200, type, body);
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static String page() {
        try (InputStream in = DashboardServer.class.getResourceAsStream("dashboard.html")) {
            if (in == null) {
                throw new IllegalStateException("dashboard.html is missing from the class path (a broken build)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dashboard.html", e);
        }
    }

    /** Stops serving. */
    @Override
    public void close() {
        server.stop(0);
        serving.shutdownNow();
    }
}
