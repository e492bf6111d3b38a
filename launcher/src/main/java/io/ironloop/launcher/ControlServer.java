package io.ironloop.launcher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.launcher.rank.ControlProtocol;
import io.ironloop.group.launch.JobSecret;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The launcher's control socket, bound to loopback. Each connection must answer a fresh random challenge
 * with the HMAC of the job secret over the nonce and its claimed identity within
 * {@link #HANDSHAKE_TIMEOUT}; anything else is refused, logged and reported to the supervisor. Messages
 * of authenticated connections go to the supervisor. One daemon thread accepts, one per connection reads.
 */
final class ControlServer implements AutoCloseable {
    /**
     * How long a new connection has to authenticate. Generous: a rank JVM connects early in its start, and on a
     * machine loaded far beyond its cores (load average 25 on 2) its hello came more than 10 s later.
     */
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    private final ServerSocket server;
    private final JobSecret secret;
    private final String jobId;
    private final Consumer<SupervisorInput> sink;
    private final LauncherLog log;
    private final SecureRandom random = new SecureRandom();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Binds a free loopback port and starts accepting.
     *
     * @throws IOException if no port can be bound
     */
    ControlServer(JobSecret secret, String jobId, Consumer<SupervisorInput> sink, LauncherLog log) throws IOException {
        this.secret = secret;
        this.jobId = jobId;
        this.sink = sink;
        this.log = log;
        this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "ironloop-control-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The socket address ranks connect to. */
    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** {@code host:port} for {@code IRONLOOP_LAUNCHER}. */
    String hostPort() {
        return address().getAddress().getHostAddress() + ":" + address().getPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                Thread t = new Thread(() -> serve(socket), "ironloop-control-" + socket.getPort());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("control socket accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void serve(Socket socket) {
        String remote = describe(socket);
        try (socket) {
            socket.setSoTimeout((int) HANDSHAKE_TIMEOUT.toMillis());
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            Optional<RankConnection> connection = handshake(socket, in, out, remote);
            if (connection.isEmpty()) {
                return;
            }
            socket.setSoTimeout(0);
            sink.accept(new SupervisorInput.RankHello(connection.get(), Instant.now()));
            try {
                readEvents(connection.get(), in);
            } finally {
                connection.get().markFinished();
            }
        } catch (IOException e) {
            if (!closed && !(e instanceof SocketException)) {
                log.warn("control connection from " + remote + " failed: " + e.getMessage());
            }
        } finally {
            open.remove(socket);
        }
    }

    private Optional<RankConnection> handshake(Socket socket, InputStream in, OutputStream out, String remote)
            throws IOException {
        byte[] nonceBytes = new byte[32];
        random.nextBytes(nonceBytes);
        String nonce = HexFormat.of().formatHex(nonceBytes);
        ControlProtocol.write(out, ControlProtocol.message(ControlProtocol.CHALLENGE)
                .put("version", ControlProtocol.VERSION).put("nonce", nonce));
        ObjectNode hello;
        try {
            Optional<ObjectNode> first = ControlProtocol.read(in);
            if (first.isEmpty()) {
                // Closed without a word, typically a rank killed while starting: nothing to refuse or log.
                return Optional.empty();
            }
            hello = first.get();
        } catch (ProtocolException e) {
            return refuse(out, remote, "malformed handshake: " + e.getMessage());
        } catch (SocketTimeoutException e) {
            return refuse(out, remote, "no hello within " + HANDSHAKE_TIMEOUT.toSeconds() + " s");
        }
        if (!ControlProtocol.HELLO.equals(hello.path("type").asText())) {
            return refuse(out, remote, "sent '" + hello.path("type").asText() + "' before authenticating");
        }
        if (hello.path("version").asInt() != ControlProtocol.VERSION) {
            return refuse(out, remote, "protocol version " + hello.path("version") + ", expected " + ControlProtocol.VERSION);
        }
        String job = hello.path("job").asText();
        int rank = hello.path("rank").asInt(-1);
        int attempt = hello.path("attempt").asInt(-1);
        long pid = hello.path("pid").asLong(-1);
        String mac = hello.path("mac").asText(null);
        String expected = ControlProtocol.helloMacInput(nonce, job, rank, attempt, pid);
        if (!secret.verify(expected, mac)) {
            return refuse(out, remote, "authentication failed (wrong job secret) for claimed rank " + rank
                    + " pid " + pid);
        }
        if (!jobId.equals(job)) {
            return refuse(out, remote, "belongs to job '" + job + "', not '" + jobId + "'");
        }
        return Optional.of(new RankConnection(socket, out, rank, attempt, pid));
    }

    private Optional<RankConnection> refuse(OutputStream out, String remote, String reason) {
        log.warn("refused control connection from " + remote + ": " + reason);
        try {
            ControlProtocol.write(out, ControlProtocol.message(ControlProtocol.REFUSED).put("reason", reason));
        } catch (IOException e) {
            // The peer is gone already; the refusal is logged and reported below.
        }
        sink.accept(new SupervisorInput.ConnectionRefused(remote, reason, Instant.now()));
        return Optional.empty();
    }

    private void readEvents(RankConnection connection, InputStream in) throws IOException {
        while (true) {
            Optional<ObjectNode> message;
            try {
                message = ControlProtocol.read(in);
            } catch (ProtocolException e) {
                log.warn("rank " + connection.rank() + " sent a bad control message (ignored): " + e.getMessage());
                continue;
            }
            if (message.isEmpty()) {
                return;
            }
            sink.accept(new SupervisorInput.RankMessage(connection, message.get(), Instant.now()));
        }
    }

    /** The peer of a socket as {@code host:port}. */
    static String describe(Socket socket) {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** Stops accepting and closes every connection (live ranks then halt). */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            log.warn("closing the control socket failed: " + e.getMessage());
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // Already broken; the rank behind it notices either way.
            }
        }
    }
}
