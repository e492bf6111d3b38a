package io.ironloop.launcher.rank;

import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.group.launch.JobSecret;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A rank's authenticated control connection to its launcher, and the watchdog that halts the JVM when
 * the connection ends. Thread-safe: events may be sent from any thread.
 */
final class LauncherConnection {
    /** How long a rank waits at a synchronised iteration for the launcher's acknowledgement. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(60);

    private final LaunchEnvironment env;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Set<Long> sync;
    private final Map<Long, CountDownLatch> pendingAcks = new ConcurrentHashMap<>();
    private volatile boolean broken;
    /** Set by the shutdown hook: the JVM exits, and the end of the control connection is expected. */
    private volatile boolean exiting;

    private LauncherConnection(LaunchEnvironment env, Socket socket, InputStream in, OutputStream out, Set<Long> sync) {
        this.env = env;
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.sync = sync;
    }

    /**
     * Connects and authenticates.
     *
     * @param env the launch environment
     * @param secret the job secret
     * @param timeout bound for connecting and for each handshake step
     * @return the open connection (its watchdog not yet started)
     * @throws ProtocolException if the launcher refuses the rank or answers out of protocol
     * @throws IOException if the launcher cannot be reached
     */
    static LauncherConnection open(LaunchEnvironment env, JobSecret secret, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(env.launcher(), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            ObjectNode challenge = expect(in, ControlProtocol.CHALLENGE);
            long pid = ProcessHandle.current().pid();
            String mac = secret.hmacHex(ControlProtocol.helloMacInput(challenge.path("nonce").asText(),
                    env.jobId(), env.rank(), env.attempt(), pid));
            ControlProtocol.write(out, ControlProtocol.message(ControlProtocol.HELLO)
                    .put("version", ControlProtocol.VERSION).put("job", env.jobId()).put("rank", env.rank())
                    .put("attempt", env.attempt()).put("pid", pid).put("mac", mac));
            ObjectNode welcome = expect(in, ControlProtocol.WELCOME);
            Set<Long> sync = new HashSet<>();
            for (JsonNode i : welcome.path("sync")) {
                sync.add(i.asLong());
            }
            socket.setSoTimeout(0);
            return new LauncherConnection(env, socket, in, out, Set.copyOf(sync));
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static ObjectNode expect(InputStream in, String type) throws IOException {
        ObjectNode message = ControlProtocol.read(in)
                .orElseThrow(() -> new ProtocolException("the launcher closed the connection before '" + type + "'"));
        String got = message.path("type").asText();
        if (ControlProtocol.REFUSED.equals(got)) {
            throw new ProtocolException("the launcher refused this rank: " + message.path("reason").asText());
        }
        if (!type.equals(got)) {
            throw new ProtocolException("expected '" + type + "' from the launcher, got '" + got + "'");
        }
        return message;
    }

    /**
     * Starts the daemon thread that reads acknowledgements and halts the JVM when the launcher is gone, and a
     * shutdown hook that ends it when the JVM exits. A thread blocked in a socket read is in native code, and
     * HotSpot's exit waits up to 300 ms for such threads: the watchdog made every rank JVM's exit about 0.3 s
     * longer than its work (measured with strace: 0.36-0.49 s from the last output to {@code exit_group} with a
     * thread blocked in a read, 4-31 ms without).
     */
    void startWatchdog() {
        Thread t = new Thread(this::watch, "ironloop-launcher-watchdog");
        t.setDaemon(true);
        t.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> endWatchdog(t), "ironloop-launcher-watchdog-end"));
    }

    /** How long the shutdown hook waits for the watchdog to leave its read. */
    private static final long WATCHDOG_END_MILLIS = 200;

    /** The JVM exits: the watchdog stops reading (without halting) so that it is not in native code at exit. */
    private void endWatchdog(Thread watchdog) {
        exiting = true;
        try {
            socket.shutdownInput(); // the blocked read returns end of stream; nothing is sent to the launcher
            watchdog.join(WATCHDOG_END_MILLIS);
        } catch (IOException e) {
            // the connection is already gone: the watchdog has nothing left to read
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        String why;
        try {
            while (true) {
                var message = ControlProtocol.read(in);
                if (exiting) {
                    return;
                }
                if (message.isEmpty()) {
                    why = "the launcher closed the control connection";
                    break;
                }
                if (ControlProtocol.ACK.equals(message.get().path("type").asText())) {
                    CountDownLatch latch = pendingAcks.remove(message.get().path("iteration").asLong());
                    if (latch != null) {
                        latch.countDown();
                    }
                }
            }
        } catch (IOException e) {
            if (exiting) {
                return;
            }
            why = "the control connection to the launcher failed (" + e.getMessage() + ")";
        }
        System.err.println("ironloop rank " + env.rank() + " (pid " + ProcessHandle.current().pid() + "): " + why
                + "; the launcher exited or was killed, so this rank halts now with status "
                + RankBootstrap.EXIT_LAUNCHER_LOST);
        System.err.flush();
        Runtime.getRuntime().halt(RankBootstrap.EXIT_LAUNCHER_LOST);
    }

    /** Sends one event; a failure is reported once on standard error (the watchdog then halts the rank). */
    void send(ObjectNode event) {
        if (broken) {
            return;
        }
        try {
            synchronized (out) {
                ControlProtocol.write(out, event);
            }
        } catch (IOException e) {
            broken = true;
            System.err.println("ironloop rank " + env.rank() + ": cannot send '" + event.path("type").asText()
                    + "' to the launcher: " + e.getMessage());
        }
    }

    /**
     * Sends an iteration event; at a synchronised iteration waits (bounded) for the launcher's
     * acknowledgement, so that an injected fault strikes exactly there.
     */
    void iteration(ObjectNode event, long iteration) {
        if (!sync.contains(iteration)) {
            send(event);
            return;
        }
        CountDownLatch latch = pendingAcks.computeIfAbsent(iteration, i -> new CountDownLatch(1));
        send(event);
        try {
            if (!latch.await(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                System.err.println("ironloop rank " + env.rank() + ": no acknowledgement from the launcher for"
                        + " iteration " + iteration + " within " + ACK_TIMEOUT.toSeconds() + " s; continuing");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The launch environment this connection was opened with. */
    LaunchEnvironment environment() {
        return env;
    }

    /** Whether the socket is still open and no send has failed. */
    boolean isOpen() {
        return !broken && !socket.isClosed();
    }
}
