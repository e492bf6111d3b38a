package io.ironloop.group.internal.jgroups;

import io.ironloop.BufferPool;
import io.ironloop.group.internal.Envelope;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Direct TCP connections between ranks for the bulk of the traffic: point-to-point messages and the
 * messages of collectives. JGroups keeps membership, failure detection, agreement and fencing; moving
 * megabytes through its stack (fragmentation, retransmission tables, flow-control credits, three thread
 * hand-offs per message) reached a fifth of raw loopback TCP, this reaches most of it.
 *
 * <p>One connection per ordered pair of ranks, opened by the sender on its first message and
 * authenticated both ways with the job secret ({@link SecretHandshake}) before a byte of data flows; the
 * client then names its world rank. Frames: {@code int length, int epoch, byte kind, long tag, payload}; the
 * kind's bit {@value #BULK} marks a direct payload (bulk data such as snapshot images), which goes from the
 * sender's buffer to the socket and from the socket into a buffer of the receiver's {@link BufferPool}
 * without a copy in either process: the kernel's copies are the only ones, as with a raw socket.
 * Messages from one sender arrive in order (one connection, writes serialised). The sender writes on
 * its own thread: a send blocks only while the receiving process does not read (stopped, starved), until
 * it reads or is {@link #forget(int) declared failed}; every receiver drains its connections on its own
 * threads, so two ranks sending to each other never deadlock. Messages to a failed rank are dropped.
 *
 * <p>Bound to the group's address (loopback under the launcher), on a port the kernel chooses, which the
 * rank's JGroups address carries to the others. Not used with {@code GROUP_ENCRYPT} (JGroups encrypts).
 */
final class DataPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    private static final int HEADER = Integer.BYTES + Integer.BYTES + 1 + Long.BYTES;
    private static final int BUFFER = 1 << 20;
    /**
     * What a read for a header, or for the end of a bulk payload, may take beyond it: enough for many small messages
     * per read, little of a bulk payload that follows (which is then copied out of the connection's buffer).
     */
    private static final int LOOKAHEAD = 16 << 10;
    private static final int CONNECT_TIMEOUT_MILLIS = 3000;
    /** Flag in a frame's kind byte: the payload was direct at the sender and is received into a direct buffer. */
    static final int BULK = 0x40;

    private final int rank;
    private final String jobId;
    private final SecretHandshake handshake;
    private final Consumer<Envelope> deliver;
    private final IntFunction<InetSocketAddress> addressOf;
    private final BufferPool buffers;
    private final ServerSocketChannel server;
    private final Map<Integer, Connection> out = new ConcurrentHashMap<>();
    private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();
    private final Set<Integer> failed = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Binds the server socket and starts accepting.
     *
     * @param addressOf the data address of a world rank, or null while unknown
     * @param buffers where bulk payloads are received into
     * @param deliver receives every message, on the thread reading that sender's connection
     * @throws IOException if the address cannot be bound
     */
    DataPlane(int rank, String jobId, InetAddress bind, SecretHandshake handshake, IntFunction<InetSocketAddress> addressOf,
            BufferPool buffers, Consumer<Envelope> deliver) throws IOException {
        this.rank = rank;
        this.jobId = jobId;
        this.handshake = handshake;
        this.addressOf = addressOf;
        this.buffers = buffers;
        this.deliver = deliver;
        this.server = ServerSocketChannel.open().bind(new InetSocketAddress(bind, 0), 64);
        Thread t = new Thread(this::accept, "ironloop-data-accept-" + jobId + "-r" + rank);
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.socket().getLocalPort();
    }

    /**
     * Sends {@code e} to {@code dest}, connecting first if needed; blocks while {@code dest} does not read.
     * Dropped if {@code dest} is or becomes failed, or this plane is closed.
     *
     * @return false if {@code dest} cannot be reached directly (its first connection failed): the caller
     *     sends this and every later message to it another way, which keeps them in order
     */
    boolean send(int dest, Envelope e) {
        Connection c = out.computeIfAbsent(dest, Connection::new);
        synchronized (c) {
            while (!closed && !failed.contains(dest)) {
                if (c.unreachable) {
                    return false;
                }
                try {
                    c.write(e);
                    return true;
                } catch (IOException ex) {
                    c.reset();
                    if (closed || failed.contains(dest)) {
                        break;
                    }
                    if (!c.connected) {
                        c.unreachable = true;
                        LOG.warn("job {} rank {}: no direct data connection to rank {} ({}); its messages go through the group "
                                + "channel instead (slower for large messages)", jobId, rank, dest, ex.toString());
                        return false;
                    }
                    LOG.debug("job {} rank {}: data connection to rank {} failed ({}); reconnecting", jobId, rank, dest, ex.toString());
                    try {
                        TimeUnit.MILLISECONDS.sleep(50); // briefly unresponsive: retry until it answers or is declared failed
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                }
            }
        }
        return true;
    }

    /** {@code r} failed for good: drop what is queued for it, unblock senders to it, stop reading from it. */
    void forget(int r) {
        if (failed.add(r)) {
            Connection c = out.get(r);
            if (c != null) {
                c.abort();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("closing the data server socket: {}", e.toString());
        }
        out.values().forEach(Connection::abort);
        for (Socket s : accepted) {
            closeQuietly(s);
        }
    }

    private void accept() {
        while (!closed) {
            SocketChannel s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("job {} rank {}: the data server socket failed: {}", jobId, rank, e.toString());
                }
                return;
            }
            Thread t = new Thread(() -> serve(s), "ironloop-data-in-" + jobId + "-r" + rank);
            t.setDaemon(true);
            t.start();
        }
    }

    /** Authenticates an accepted connection, then reads its frames until it ends. */
    private void serve(SocketChannel ch) {
        Socket s = ch.socket();
        accepted.add(s);
        int source = -1;
        try {
            if (!handshake.asServer(s)) {
                return;
            }
            s.setTcpNoDelay(true);
            ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER);
            buf.limit(0);
            ByteBuffer[] scatter = {null, buf};
            source = need(ch, buf, Integer.BYTES).getInt();
            while (!closed && !failed.contains(source)) {
                need(ch, buf, HEADER);
                int length = buf.getInt();
                int epoch = buf.getInt();
                int kindByte = buf.get();
                Envelope.Kind kind = Envelope.Kind.of(kindByte & ~BULK);
                long tag = buf.getLong();
                if (length < 0) {
                    throw new IOException("negative frame length " + length);
                }
                ByteBuffer payload = (kindByte & BULK) != 0 ? buffers.take(length) : ByteBuffer.allocate(length);
                int buffered = Math.min(buf.remaining(), length);
                payload.put(buf.slice().limit(buffered));
                buf.position(buf.position() + buffered);
                while (payload.hasRemaining()) {
                    if (payload.isDirect()) { // straight from the socket, no copy; what follows (the next header) into buf
                        scatter[0] = payload;
                        buf.clear().limit(LOOKAHEAD); // empty: what it held went into payload
                        long n = ch.read(scatter);
                        buf.flip();
                        if (n < 0) {
                            throw new EOFException("end of stream");
                        }
                    } else {
                        fill(ch, buf);
                        int n = Math.min(buf.remaining(), payload.remaining());
                        payload.put(buf.slice().limit(n));
                        buf.position(buf.position() + n);
                    }
                }
                deliver.accept(new Envelope(epoch, kind, tag, source, payload.flip()));
            }
        } catch (EOFException | SocketException | java.nio.channels.ClosedChannelException e) {
            LOG.debug("job {} rank {}: data connection from rank {} ended: {}", jobId, rank, source, e.toString());
        } catch (IOException | RuntimeException e) {
            if (!closed && !failed.contains(source)) {
                LOG.warn("job {} rank {}: dropping the data connection from rank {}: {}", jobId, rank, source, e.toString());
            }
        } finally {
            accepted.remove(s);
            closeQuietly(s);
        }
    }

    /**
     * Makes at least {@code n} bytes readable in {@code buf} (in read mode), reading from {@code ch} at most
     * {@link #LOOKAHEAD} bytes beyond what it holds: a header is followed by its payload, which, if it is bulk, should
     * go from the socket straight into its own buffer rather than through this one.
     */
    private static ByteBuffer need(SocketChannel ch, ByteBuffer buf, int n) throws IOException {
        while (buf.remaining() < n) {
            fill(ch, buf, LOOKAHEAD);
        }
        return buf;
    }

    /** Reads more bytes into {@code buf}, keeping those not yet consumed. */
    private static void fill(SocketChannel ch, ByteBuffer buf) throws IOException {
        fill(ch, buf, buf.capacity());
    }

    /** Reads at most {@code max} more bytes into {@code buf} (fewer if it has less room), keeping those not yet consumed. */
    private static void fill(SocketChannel ch, ByteBuffer buf, int max) throws IOException {
        buf.compact();
        buf.limit((int) Math.min(buf.capacity(), (long) buf.position() + max));
        try {
            if (ch.read(buf) < 0) {
                throw new EOFException("end of stream");
            }
        } finally {
            buf.flip();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    /** The sending side of one connection; guarded by its own monitor (one message at a time). */
    private final class Connection {
        private final int dest;
        private volatile SocketChannel channel;
        private ByteBuffer buf;
        /** Whether a connection was ever established: from then on, messages to dest only go this way. */
        boolean connected;
        /** The first connection failed: messages to dest go through the group channel. */
        boolean unreachable;

        Connection(int dest) {
            this.dest = dest;
        }

        void write(Envelope e) throws IOException {
            if (channel == null) {
                connect();
            }
            ByteBuffer p = e.payload().duplicate();
            boolean bulk = p.isDirect();
            buf.clear();
            buf.putInt(p.remaining()).putInt(e.epoch()).put((byte) (e.kind().ordinal() | (bulk ? BULK : 0))).putLong(e.tag());
            if (bulk) { // header and payload in one gathering write, the payload straight from its buffer
                buf.flip();
                ByteBuffer[] frame = {buf, p};
                while (p.hasRemaining() || buf.hasRemaining()) {
                    channel.write(frame);
                }
                return;
            }
            do {
                int n = Math.min(buf.remaining(), p.remaining());
                buf.put(p.slice().limit(n));
                p.position(p.position() + n);
                buf.flip();
                while (buf.hasRemaining()) {
                    channel.write(buf);
                }
                buf.clear();
            } while (p.hasRemaining());
        }

        private void connect() throws IOException {
            InetSocketAddress where = addressOf.apply(dest);
            if (where == null) {
                throw new IOException("the data address of rank " + dest + " is not known yet");
            }
            SocketChannel ch = SocketChannel.open();
            try {
                Socket s = ch.socket();
                s.setTcpNoDelay(true);
                s.connect(where, CONNECT_TIMEOUT_MILLIS);
                byte[] nonce = handshake.clientNonce();
                handshake.clientHello(s, nonce);
                s.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
                handshake.verifyServer(s.getInputStream(), nonce, s.getRemoteSocketAddress());
                s.setSoTimeout(0);
                if (buf == null) {
                    buf = ByteBuffer.allocateDirect(BUFFER + HEADER);
                }
                ByteBuffer hello = ByteBuffer.allocate(Integer.BYTES).putInt(rank).flip();
                while (hello.hasRemaining()) {
                    ch.write(hello);
                }
                channel = ch;
                connected = true;
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }

        /** Closes the channel so that the next write reconnects. Called with the monitor held. */
        void reset() {
            SocketChannel c = channel;
            channel = null;
            if (c != null) {
                closeQuietly(c.socket());
            }
        }

        /** Closes the channel from any thread, which unblocks a writer stuck on it. */
        void abort() {
            SocketChannel c = channel;
            if (c != null) {
                closeQuietly(c.socket());
            }
        }
    }
}
