package io.ironloop.sites;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.internal.ProtectorWire;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls a protector — a site's cluster protector ({@link SiteProtector}) or a node protector ({@link NodeProtector})
 * — makes on another over {@link ProtectorWire}, and the loop that serves them: one definition of each message for
 * both levels. Every request is an operation name, the caller's name (a site or a node), a scope, then its fields.
 * {@code encrypt} is {@code SITE_ENCRYPT} ({@link SiteProtector.Config#encrypt()}), the same at every protector.
 */
final class ProtectorCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ProtectorCalls.class);
    private ProtectorCalls() {
    }

    /**
     * A heartbeat's answer.
     *
     * @param version the table version the receiver holds
     * @param newerTable its table's text when newer than the sender's, or of the same version and different (two
     *     changes made at the same time: the sender merges them, {@link Topology#merge}), else empty
     */
    record HeartbeatAnswer(long version, String newerTable) {
    }

    /** Serves one operation of a connection; the operation name and the caller's name and scope are already read. */
    interface Handler {
        void serve(ProtectorWire w, String op, String from, String scope) throws IOException;
    }

    /**
     * {@code HEARTBEAT}s of one protector, one after the other on one connection kept open between them (the receiver
     * keeps a connection until it has been idle for {@code SITE_TIMEOUT}, far longer than a heartbeat's period), so that
     * a heartbeat costs a message there and back, not a TCP connection and the secret's handshake each time. A new
     * connection is opened when the address changes, and once more at once when a kept one turns out closed at the
     * other end (a restarted protector, a reset link); a heartbeat that times out is lost, as before, and the next one
     * starts on a new connection. Threading: one caller at a time (the protector's loop); {@link #close} from any thread.
     */
    static final class Heartbeats implements AutoCloseable {
        private final JobSecret secret;
        private final boolean encrypt;
        private InetSocketAddress to;
        private volatile ProtectorWire wire;

        Heartbeats(JobSecret secret, boolean encrypt) {
            this.secret = secret;
            this.encrypt = encrypt;
        }

        /** Tells {@code to} that {@code from} is alive and which table it holds (version and digest). */
        HeartbeatAnswer beat(InetSocketAddress to, String from, Topology mine, Duration patience) throws IOException {
            ProtectorWire w = wire;
            if (w != null && !to.equals(this.to)) {
                close();
                w = null;
            }
            if (w != null) {
                try {
                    w.timeout(patience);
                    return send(w, from, mine);
                } catch (SocketTimeoutException e) {
                    close();
                    throw e;
                } catch (IOException e) {
                    close(); // closed at the other end meanwhile: once more on a new connection
                }
            }
            w = ProtectorWire.connect(to, secret, encrypt, patience);
            this.to = to;
            wire = w;
            try {
                return send(w, from, mine);
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        private static HeartbeatAnswer send(ProtectorWire w, String from, Topology mine) throws IOException {
            w.out.writeUTF("HEARTBEAT");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.out.writeLong(mine.version());
            w.out.writeLong(mine.digest());
            w.expectOk("heartbeat");
            return new HeartbeatAnswer(w.in.readLong(), w.in.readUTF());
        }

        /** Closes the kept connection, if any. */
        @Override
        public void close() {
            ProtectorWire w = wire;
            wire = null;
            if (w != null) {
                w.close();
            }
        }
    }

    /**
     * The receiver's side of {@link Heartbeats#beat}: answers {@code mine}'s version, and its text if newer than the sender's
     * or of the same version and another digest.
     */
    static void answerHeartbeat(ProtectorWire w, Topology mine) throws IOException {
        long theirs = w.in.readLong();
        long theirDigest = w.in.readLong();
        w.out.writeBoolean(true);
        w.out.writeLong(mine.version());
        boolean differs = mine.version() > theirs || mine.version() == theirs && mine.digest() != theirDigest;
        w.out.writeUTF(differs ? mine.encode() : "");
    }

    /**
     * {@code COMMITTED}: a rank tells its site's cluster protector at {@code to} that it committed a line of {@code series}
     * at {@code iteration} (so that the protector ships it at once), and which table it holds; answered as a heartbeat,
     * with the protector's table when it is newer ({@link #answerHeartbeat}).
     *
     * @param from the rank, as its series name ({@code rank-00003})
     * @param version the version of the table the rank holds
     * @param digest that table's digest, or 0 when the rank knows only its version (the answer then carries the table)
     * @throws IOException if the protector cannot be reached, does not prove the job secret or refuses
     */
    static HeartbeatAnswer committed(InetSocketAddress to, JobSecret secret, boolean encrypt, String from, String series, long iteration,
            long version, long digest, Duration timeout) throws IOException {
        try (ProtectorWire w = ProtectorWire.connect(to, secret, encrypt, timeout)) {
            w.out.writeUTF("COMMITTED");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.out.writeUTF(series);
            w.out.writeLong(iteration);
            w.out.writeLong(version);
            w.out.writeLong(digest);
            w.expectOk("notice of a committed line");
            return new HeartbeatAnswer(w.in.readLong(), w.in.readUTF());
        }
    }

    /** {@code PING}: whether a protector at {@code to} answers within {@code timeout}. */
    static boolean ping(InetSocketAddress to, JobSecret secret, boolean encrypt, String from, Duration timeout) {
        try (ProtectorWire w = ProtectorWire.connect(to, secret, encrypt, timeout)) {
            w.out.writeUTF("PING");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.expectOk("ping");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether any of the protectors at {@code to} answers a {@link #ping} within {@code timeout}: all asked at once on
     * {@code executor}, the first answer ends the wait. A hung protector (stopped, not dead) accepts a connection and
     * never answers, so asking one after the other would spend a whole timeout on each hung one before a live one.
     */
    static boolean pingAny(java.util.List<InetSocketAddress> to, JobSecret secret, boolean encrypt, String from, Duration timeout,
            java.util.concurrent.Executor executor) {
        java.util.concurrent.CompletableFuture<Boolean> any = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(to.size());
        for (InetSocketAddress at : to) {
            Runnable one = () -> {
                if (ping(at, secret, encrypt, from, timeout)) {
                    any.complete(true);
                } else if (left.decrementAndGet() == 0) {
                    any.complete(false);
                }
            };
            try {
                executor.execute(one);
            } catch (RejectedExecutionException e) { // the protector is closing: that one counts as not answering
                if (left.decrementAndGet() == 0) {
                    any.complete(false);
                }
            }
        }
        if (to.isEmpty()) {
            return false;
        }
        try {
            return any.get(timeout.multipliedBy(3).toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /**
     * {@code TAKE_OVER}: asks the node protector at {@code to} to take over the site's cluster protector, which runs on
     * {@code from} (the controller node) and is cut off from both neighbour sites; it does only if it reaches one of them.
     *
     * @return whether it took over
     * @throws IOException if it cannot be asked
     */
    static boolean takeOver(InetSocketAddress to, JobSecret secret, boolean encrypt, String from, Duration timeout) throws IOException {
        try (ProtectorWire w = ProtectorWire.connect(to, secret, encrypt, timeout)) {
            w.timeout(timeout.multipliedBy(3)); // it pings the neighbour sites with the whole timeout first
            w.out.writeUTF("TAKE_OVER");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.expectOk("take-over");
            return w.in.readBoolean();
        }
    }

    /**
     * {@code CHECK}: asks the third party at {@code third} whether it reaches {@code target} (Algorithm 2's
     * verification).
     *
     * @throws IOException if the third party cannot be asked
     */
    static boolean check(InetSocketAddress third, JobSecret secret, boolean encrypt, String from, String target, Duration timeout) throws IOException {
        try (ProtectorWire w = ProtectorWire.connect(third, secret, encrypt, timeout)) {
            w.timeout(timeout.multipliedBy(3)); // the third party pings the target with the whole timeout first
            w.out.writeUTF("CHECK");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.out.writeUTF(target);
            w.expectOk("check of " + target);
            return w.in.readBoolean();
        }
    }

    /** {@code TABLE}: gives {@code t} to the protector at {@code to}, which merges it with its own ({@link Topology#merge}). */
    static void announce(InetSocketAddress to, JobSecret secret, boolean encrypt, String from, Topology t, Duration timeout) throws IOException {
        try (ProtectorWire w = ProtectorWire.connect(to, secret, encrypt, timeout)) {
            w.out.writeUTF("TABLE");
            w.out.writeUTF(from);
            w.out.writeUTF("-");
            w.out.writeUTF(t.encode());
            w.expectOk("table");
        }
    }

    /** Accepts connections until {@code closed} says stop, each served on {@code pool}. */
    static void acceptLoop(ServerSocket server, BooleanSupplier closed, ExecutorService pool, Consumer<Socket> serve, String who) {
        while (!closed.getAsBoolean()) {
            try {
                Socket s = server.accept();
                pool.execute(() -> serve.accept(s));
            } catch (IOException | RejectedExecutionException e) {
                if (!closed.getAsBoolean()) {
                    LOG.warn("{}: accept failed: {}", who, e.toString());
                }
            }
        }
    }

    /**
     * Serves one accepted connection: its operations one after the other (a site's store operations on a line reuse
     * one connection), until the other end closes it, stays silent for {@code timeout}, or {@code closed} says stop.
     *
     * @throws IOException if the connection breaks or does not prove the job secret
     */
    static void serve(Socket s, JobSecret secret, boolean encrypt, Duration timeout, BooleanSupplier closed, Handler handler) throws IOException {
        try (ProtectorWire w = ProtectorWire.accept(s, secret, encrypt, timeout)) {
            while (!closed.getAsBoolean()) {
                String op;
                try {
                    w.timeout(timeout); // an operation before may have lengthened it
                    op = w.in.readUTF();
                } catch (EOFException | SocketTimeoutException e) {
                    return; // closed, or idle: the client opens another connection when it needs one
                }
                if (closed.getAsBoolean()) {
                    return; // the protector stopped while this connection waited (a kept one): it answers nothing more
                }
                handler.serve(w, op, w.in.readUTF(), w.in.readUTF());
                w.out.flush();
            }
        }
    }
}
