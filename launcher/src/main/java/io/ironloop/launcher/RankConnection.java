package io.ironloop.launcher;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.launcher.rank.ControlProtocol;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The launcher's end of one authenticated control connection, with the identity the rank claimed. The
 * supervisor accepts it only if that identity matches a rank process it started in the current attempt.
 * Thread-safe.
 */
final class RankConnection {
    private final Socket socket;
    private final OutputStream out;
    private final int rank;
    private final int attempt;
    private final long pid;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean accepted;

    RankConnection(Socket socket, OutputStream out, int rank, int attempt, long pid) {
        this.socket = socket;
        this.out = out;
        this.rank = rank;
        this.attempt = attempt;
        this.pid = pid;
    }

    int rank() {
        return rank;
    }

    int attempt() {
        return attempt;
    }

    long pid() {
        return pid;
    }

    boolean accepted() {
        return accepted;
    }

    String remote() {
        return ControlServer.describe(socket);
    }

    /** Accepts the rank and tells it at which iterations to wait for an acknowledgement. */
    void welcome(Collection<Long> syncIterations) throws IOException {
        ObjectNode welcome = ControlProtocol.message(ControlProtocol.WELCOME);
        ArrayNode sync = welcome.putArray("sync");
        syncIterations.forEach(sync::add);
        send(welcome);
        accepted = true;
    }

    /** Lets the rank continue past a synchronised iteration. */
    void ack(long iteration) throws IOException {
        send(ControlProtocol.message(ControlProtocol.ACK).put("iteration", iteration));
    }

    /** Refuses the connection with a reason and closes it. */
    void refuse(String reason) {
        try {
            send(ControlProtocol.message(ControlProtocol.REFUSED).put("reason", reason));
        } catch (IOException e) {
            // The peer is gone already: nobody is left to tell; closing below is all there is to do.
        }
        close();
    }

    private void send(ObjectNode message) throws IOException {
        synchronized (out) {
            ControlProtocol.write(out, message);
        }
    }

    /** Called by the control server when it has read the connection's last message. */
    void markFinished() {
        finished.countDown();
    }

    /** Waits (bounded) until every message of this connection has been handed to the supervisor. */
    void awaitFinished(Duration timeout) throws InterruptedException {
        finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes the socket; the rank (if still alive) then halts. */
    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing fails only for a socket that is already broken, which is the state we want.
        }
    }
}
