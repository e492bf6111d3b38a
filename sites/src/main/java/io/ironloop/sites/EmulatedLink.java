package io.ironloop.sites;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An emulated inter-site link in user space: a TCP relay on a loopback port, in front of one address, that delays every
 * byte by a fixed one-way delay, caps each direction's bandwidth, and can be cut (everything stalls: what is in flight
 * is held, new connections are accepted but nothing crosses, as behind a blackhole route) and healed. For this
 * machine's kernel, which has no {@code sch_netem}, and tests and benchmarks that need a slow or breakable link between
 * two protectors on one host: give one side the link's {@link #address()} in place of the other's.
 *
 * <p>Each direction of a relayed connection is a reader that stamps every chunk it reads with its departure time — the
 * link is busy {@code bytes / bandwidth} per chunk, one after the other — and a writer that delivers each chunk one
 * delay after its departure. At most {@link Shape#window()} bytes wait in one direction; beyond, the reader stops
 * reading and TCP's flow control pushes back on the sender, as a real link's queue would. Loss is emulated as a
 * stall ({@link #cut()}): TCP would retransmit a lost segment, so the application sees a pause, not missing bytes.
 *
 * <p>Threading: thread-safe; two daemon threads per direction of each relayed connection (a reader and a writer), one
 * acceptor.
 */
public final class EmulatedLink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmulatedLink.class);
    private static final int CHUNK = 64 << 10;

    /**
     * What the link does to the bytes.
     *
     * @param delay one-way delay, added to every byte in both directions (zero: none)
     * @param bytesPerSecond each direction's bandwidth (0: no cap)
     */
    public record Shape(Duration delay, long bytesPerSecond) {
        /** No delay, no cap: a plain relay. */
        public static final Shape NONE = new Shape(Duration.ZERO, 0);

        /**
         * Checks the fields.
         *
         * @throws IllegalArgumentException for a negative delay or bandwidth
         */
        public Shape {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative() || bytesPerSecond < 0) {
                throw new IllegalArgumentException("a link's delay and bandwidth must not be negative, not " + delay + " and "
                        + bytesPerSecond + " B/s");
            }
        }

        /**
         * A link of {@code delay} one way and {@code bitsPerSecond} (for example {@code 1_000_000_000} for 1 Gbit/s).
         *
         * @throws IllegalArgumentException as the canonical constructor
         */
        public static Shape of(Duration delay, long bitsPerSecond) {
            return new Shape(delay, bitsPerSecond / 8);
        }

        /**
         * The bytes one direction holds at most: twice the bandwidth-delay product, at least 1 MiB (16 MiB without a
         * cap).
         */
        public long window() {
            if (bytesPerSecond == 0) {
                return 16L << 20;
            }
            return Math.max(1L << 20, 2 * bytesPerSecond * Math.max(delay.toNanos(), 1_000_000) / 1_000_000_000L);
        }
    }

    private final InetSocketAddress target;
    private final Shape shape;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ironloop-emulated-link");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> open = new ArrayList<>(); // guarded by itself
    private final Object gate = new Object();
    private boolean cut; // guarded by gate
    private volatile boolean closed;

    private EmulatedLink(InetSocketAddress target, Shape shape, ServerSocket server) {
        this.target = target;
        this.shape = shape;
        this.server = server;
    }

    /**
     * Starts a link to {@code target} on a loopback port chosen by the kernel.
     *
     * @throws IOException if no port can be bound
     */
    public static EmulatedLink start(InetSocketAddress target, Shape shape) throws IOException {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), target, shape);
    }

    /**
     * Starts a link to {@code target} listening on {@code listen} (port 0: chosen by the kernel) — for a link inside a
     * network namespace, in front of a protector there, reached on the namespace's own address.
     *
     * @throws IOException if {@code listen} cannot be bound
     */
    public static EmulatedLink start(InetSocketAddress listen, InetSocketAddress target, Shape shape) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(Objects.requireNonNull(listen, "listen"), 50);
        EmulatedLink link = new EmulatedLink(Objects.requireNonNull(target, "target"), Objects.requireNonNull(shape, "shape"), s);
        link.threads.execute(link::acceptLoop);
        return link;
    }

    /** Where to connect instead of the target. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** {@code host:port} of {@link #address()}, as a protector address in a {@link Topology}. */
    public String hostPort() {
        return address().getAddress().getHostAddress() + ":" + address().getPort();
    }

    /** Cuts the link: from now on no byte crosses it either way, on open connections and on new ones, until {@link #heal()}. */
    public void cut() {
        synchronized (gate) {
            cut = true;
        }
    }

    /** Lets bytes cross again; what was held is delivered. */
    public void heal() {
        synchronized (gate) {
            cut = false;
            gate.notifyAll();
        }
    }

    /** Closes every connection relayed now (both ends see the connection end); new ones are relayed as before. */
    public void reset() {
        List<Socket> all;
        synchronized (open) {
            all = new ArrayList<>(open);
            open.clear();
        }
        all.forEach(EmulatedLink::closeQuietly);
    }

    /** Stops relaying and closes every connection. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        heal();
        reset();
        threads.shutdownNow();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("emulated link to {}: accept failed: {}", target, e.toString());
                }
                return;
            }
            threads.execute(() -> relay(client));
        }
    }

    private void relay(Socket client) {
        track(client);
        awaitHealed();
        Socket upstream = new Socket();
        try {
            track(upstream);
            upstream.connect(target);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            java.util.concurrent.atomic.AtomicInteger directions = new java.util.concurrent.atomic.AtomicInteger(2);
            Pipe up = new Pipe(client.getInputStream(), upstream, client, upstream, directions);
            Pipe down = new Pipe(upstream.getInputStream(), client, client, upstream, directions);
            threads.execute(up::read);
            threads.execute(up::write);
            threads.execute(down::read);
            down.write();
        } catch (IOException e) {
            closeBoth(client, upstream);
        }
    }

    private void track(Socket s) {
        synchronized (open) {
            open.add(s);
        }
    }

    private void closeBoth(Socket a, Socket b) {
        synchronized (open) {
            open.remove(a);
            open.remove(b);
        }
        closeQuietly(a);
        closeQuietly(b);
    }

    private void awaitHealed() {
        synchronized (gate) {
            while (cut && !closed) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }

    /** One direction of a relayed connection: chunks stamped with their delivery time, at most a window of them. */
    private final class Pipe {
        private record Chunk(byte[] bytes, int length, long deliverAt) {
        }

        private final InputStream from;
        private final Socket to;
        private final Socket a;
        private final Socket b;
        private final java.util.concurrent.atomic.AtomicInteger directions;
        private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
        private long queued; // guarded by queue
        private boolean ended; // guarded by queue
        private long linkFree; // the reader's: when the link has sent everything read so far

        /** {@code directions}: the connection's directions still running; the last one to end closes both sockets. */
        Pipe(InputStream from, Socket to, Socket a, Socket b, java.util.concurrent.atomic.AtomicInteger directions) {
            this.from = from;
            this.to = to;
            this.a = a;
            this.b = b;
            this.directions = directions;
        }

        void read() {
            try {
                while (true) {
                    byte[] buf = new byte[CHUNK];
                    int n = from.read(buf);
                    if (n < 0) {
                        break;
                    }
                    long now = System.nanoTime();
                    long departs = Math.max(now, linkFree) + (shape.bytesPerSecond() == 0 ? 0 : n * 1_000_000_000L / shape.bytesPerSecond());
                    linkFree = departs;
                    synchronized (queue) {
                        while (queued >= shape.window() && !ended) {
                            queue.wait();
                        }
                        if (ended) {
                            return; // aborted
                        }
                        queue.addLast(new Chunk(buf, n, departs + shape.delay().toNanos()));
                        queued += n;
                        queue.notifyAll();
                    }
                }
            } catch (IOException e) {
                abort();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abort();
            }
            synchronized (queue) {
                ended = true;
                queue.notifyAll();
            }
        }

        void write() {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk c;
                    synchronized (queue) {
                        while (queue.isEmpty() && !ended) {
                            queue.wait();
                        }
                        c = queue.pollFirst();
                        if (c == null) {
                            break;
                        }
                    }
                    long wait = c.deliverAt() - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    awaitHealed();
                    out.write(c.bytes(), 0, c.length());
                    synchronized (queue) {
                        queued -= c.length();
                        queue.notifyAll();
                    }
                }
                to.shutdownOutput(); // the sender closed its side: pass the end on, after every byte it sent
                if (directions.decrementAndGet() == 0) {
                    closeBoth(a, b);
                }
            } catch (IOException e) {
                abort();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abort();
            }
        }

        private void abort() {
            closeBoth(a, b);
            synchronized (queue) {
                ended = true;
                queued = 0;
                queue.clear();
                queue.notifyAll();
            }
        }
    }
}
