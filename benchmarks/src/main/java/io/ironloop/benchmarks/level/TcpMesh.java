package io.ironloop.benchmarks.level;

import io.ironloop.core.level.PeerLink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Ranks as threads of this JVM connected by real loopback TCP: one connection per ordered pair of ranks, each
 * drained by a reader thread into per-tag queues, so a sender never waits for its receiver to ask (as the
 * group's data connections behave). The levels of {@code bench levels} run over it; its raw-TCP reference
 * uses separate connections of the same kind ({@link #rawPair}).
 *
 * <p>Threading: {@link PeerLink#send} is safe from any thread (one writer per connection at a time);
 * {@link PeerLink#receive} is called by the receiving rank's threads.
 */
final class TcpMesh implements AutoCloseable {
    private static final int HEADER = 2 * Integer.BYTES;
    private static final long RECEIVE_TIMEOUT_S = 120;

    private final int size;
    /** out[from][to]: the connection from world rank {@code from} to {@code to}. */
    private final SocketChannel[][] out;
    private final List<SocketChannel> in = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    /** Per receiving world rank, the queue of messages from (source world rank, tag). */
    private final List<Map<Long, BlockingQueue<ByteBuffer>>> inbox = new ArrayList<>();
    private final Map<Integer, ConcurrentLinkedQueue<ByteBuffer>> pool = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private TcpMesh(int size) {
        this.size = size;
        this.out = new SocketChannel[size][size];
        for (int r = 0; r < size; r++) {
            inbox.add(new ConcurrentHashMap<>());
        }
    }

    /** Connects {@code size} ranks pairwise over loopback (ports chosen by the kernel). */
    static TcpMesh open(int size) throws IOException {
        TcpMesh mesh = new TcpMesh(size);
        try {
            mesh.connect();
        } catch (IOException | RuntimeException e) {
            mesh.close();
            throw e;
        }
        return mesh;
    }

    private void connect() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        List<ServerSocketChannel> servers = new ArrayList<>();
        try {
            for (int r = 0; r < size; r++) {
                servers.add(ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), size));
            }
            for (int to = 0; to < size; to++) {
                for (int from = 0; from < size; from++) {
                    if (from == to) {
                        continue;
                    }
                    SocketChannel ch = SocketChannel.open(servers.get(to).getLocalAddress());
                    ch.socket().setTcpNoDelay(true);
                    writeFully(ch, ByteBuffer.allocate(Integer.BYTES).putInt(from).flip());
                    out[from][to] = ch;
                    SocketChannel accepted = servers.get(to).accept();
                    in.add(accepted);
                    ByteBuffer hello = readFully(accepted, ByteBuffer.allocate(Integer.BYTES)).flip();
                    int source = hello.getInt();
                    int receiver = to;
                    Thread t = new Thread(() -> drain(accepted, source, receiver), "ironloop-bench-mesh-" + source + ">" + receiver);
                    t.setDaemon(true);
                    readers.add(t);
                    t.start();
                }
            }
        } finally {
            for (ServerSocketChannel s : servers) {
                s.close();
            }
        }
    }

    private static long key(int source, int tag) {
        return ((long) source << 32) | (tag & 0xFFFF_FFFFL);
    }

    private BlockingQueue<ByteBuffer> queue(int receiver, int source, int tag) {
        return inbox.get(receiver).computeIfAbsent(key(source, tag), k -> new LinkedBlockingQueue<>());
    }

    private void drain(SocketChannel ch, int source, int receiver) {
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        try {
            while (!closed) {
                readFully(ch, header.clear()).flip();
                int tag = header.getInt();
                int length = header.getInt();
                ByteBuffer body = take(length);
                readFully(ch, body).flip();
                queue(receiver, source, tag).add(body);
            }
        } catch (IOException e) {
            if (!closed) {
                System.err.println("bench levels: the loopback connection " + source + " > " + receiver + " failed: " + e);
            }
        }
    }

    private ByteBuffer take(int length) {
        ConcurrentLinkedQueue<ByteBuffer> free = pool.get(length);
        ByteBuffer b = free == null ? null : free.poll();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(length);
    }

    private static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static ByteBuffer readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("connection closed");
            }
        }
        return b;
    }

    /** The link of world rank {@code world[rank]} in the group made of world ranks {@code world}. */
    PeerLink link(int rank, int[] world) {
        int me = world[rank];
        return new PeerLink() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return world.length;
            }

            @Override
            public int worldRank(int r) {
                return world[r];
            }

            @Override
            public String host(int r) {
                return "";
            }

            @Override
            public void send(int dest, int tag, ByteBuffer data) {
                SocketChannel ch = out[me][world[dest]];
                ByteBuffer header = ByteBuffer.allocate(HEADER).putInt(tag).putInt(data.remaining()).flip();
                ByteBuffer body = data.duplicate();
                try {
                    synchronized (ch) {
                        while (header.hasRemaining() || body.hasRemaining()) {
                            ch.write(new ByteBuffer[] {header, body});
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("bench levels: sending to world rank " + world[dest], e);
                }
            }

            @Override
            public ByteBuffer receive(int source, int tag) {
                try {
                    ByteBuffer b = queue(me, world[source], tag).poll(RECEIVE_TIMEOUT_S, TimeUnit.SECONDS);
                    if (b == null) {
                        throw new IllegalStateException("bench levels: world rank " + me + " received nothing from world rank "
                                + world[source] + " with tag " + tag + " in " + RECEIVE_TIMEOUT_S + " s");
                    }
                    return b;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while receiving", e);
                }
            }

            @Override
            public void recycle(ByteBuffer buffer) {
                if (buffer.isDirect()) {
                    pool.computeIfAbsent(buffer.capacity(), c -> new ConcurrentLinkedQueue<>()).add(buffer);
                }
            }
        };
    }

    /** The link of world rank {@code rank} in the whole mesh. */
    PeerLink link(int rank) {
        int[] world = new int[size];
        for (int r = 0; r < size; r++) {
            world[r] = r;
        }
        return link(rank, world);
    }

    /** A fresh connected pair over loopback, {@code [sending end, receiving end]}, for the raw-TCP reference. */
    static SocketChannel[] rawPair() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 1)) {
            SocketChannel a = SocketChannel.open(server.getLocalAddress());
            SocketChannel b = server.accept();
            a.socket().setTcpNoDelay(true);
            b.socket().setTcpNoDelay(true);
            return new SocketChannel[] {a, b};
        }
    }

    @Override
    public void close() {
        closed = true;
        for (SocketChannel[] row : out) {
            for (SocketChannel ch : row) {
                closeQuietly(ch);
            }
        }
        in.forEach(TcpMesh::closeQuietly);
    }

    private static void closeQuietly(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                System.err.println("bench levels: closing a loopback connection: " + e);
            }
        }
    }
}
