package io.ironloop.benchmarks.group;

import io.ironloop.group.ProcessGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;

/**
 * The raw loopback TCP reference of the benchmarks: blocking {@link SocketChannel}s between the rank JVMs of a
 * job, written from and read into one direct buffer whose bytes are dropped (the least any transfer does).
 * {@code bench group} moves rank 0 → rank 1 through it; {@code bench recovery} moves every rank's partner copy
 * through it, in the pattern of the partner level.
 */
public final class RawTcp {
    private RawTcp() {
    }

    /** Writes {@code messages} times the whole of {@code buf} (a direct buffer) to {@code ch}. */
    public static void write(SocketChannel ch, ByteBuffer buf, long messages) throws IOException {
        for (long k = 0; k < messages; k++) {
            buf.clear();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    }

    /** Writes every buffer of {@code buffers} whole (from position 0 to its limit, positions left alone) to {@code ch}. */
    public static void write(SocketChannel ch, ByteBuffer[] buffers) throws IOException {
        for (ByteBuffer b : buffers) {
            ByteBuffer d = b.duplicate().clear();
            while (d.hasRemaining()) {
                ch.write(d);
            }
        }
    }

    /** Fills every buffer of {@code into} (from position 0 to its capacity) from {@code ch}, in order. */
    public static void read(SocketChannel ch, ByteBuffer[] into) throws IOException {
        for (ByteBuffer b : into) {
            ByteBuffer d = b.duplicate().clear();
            while (d.hasRemaining()) {
                if (ch.read(d) < 0) {
                    throw new IOException("raw reference connection closed by the other rank");
                }
            }
        }
    }

    /** Reads exactly {@code bytes} from {@code ch} through {@code buf}, dropping them. */
    public static void read(SocketChannel ch, ByteBuffer buf, long bytes) throws IOException {
        for (long left = bytes; left > 0; ) {
            buf.clear();
            if (buf.capacity() > left) {
                buf.limit((int) left);
            }
            int r = ch.read(buf);
            if (r < 0) {
                throw new IOException("raw reference connection closed by the other rank");
            }
            left -= r;
        }
    }

    /**
     * Raw connections from this rank to the ranks it sends to and from the ranks it receives from, opened
     * through the group (every rank's listening port by allgather). Collective.
     *
     * @param to the ranks this rank sends to
     * @param from the ranks that send to this rank
     */
    public static Map<Integer, SocketChannel>[] connect(ProcessGroup g, int[] to, int[] from) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 64)) {
            int port = server.socket().getLocalPort();
            byte[][] ports = g.allgather(ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(port).array());
            Map<Integer, SocketChannel> out = new HashMap<>();
            for (int dest : to) {
                int p = ByteBuffer.wrap(ports[dest]).order(ByteOrder.LITTLE_ENDIAN).getInt();
                SocketChannel ch = SocketChannel.open(new InetSocketAddress(loopback, p));
                ch.socket().setTcpNoDelay(true);
                ByteBuffer hello = ByteBuffer.allocate(Integer.BYTES).putInt(g.rank()).flip();
                while (hello.hasRemaining()) {
                    ch.write(hello);
                }
                out.put(dest, ch);
            }
            Map<Integer, SocketChannel> in = new HashMap<>();
            for (int k = 0; k < from.length; k++) {
                SocketChannel ch = server.accept();
                ch.socket().setTcpNoDelay(true);
                ByteBuffer hello = ByteBuffer.allocate(Integer.BYTES);
                while (hello.hasRemaining()) {
                    if (ch.read(hello) < 0) {
                        throw new IOException("a raw reference connection closed before naming its rank");
                    }
                }
                in.put(hello.flip().getInt(), ch);
            }
            g.barrier();
            @SuppressWarnings("unchecked")
            Map<Integer, SocketChannel>[] both = new Map[] {out, in};
            return both;
        }
    }
}
