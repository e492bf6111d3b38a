package io.ironloop.sites.internal;

import io.ironloop.group.launch.JobSecret;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One authenticated connection between two cluster protectors. Both ends prove they hold the job secret before
 * anything else is read: the client sends {@code ILSP}, version 1 and a 16-byte nonce; the server answers its own
 * nonce and HMAC-SHA256(k, "server" ‖ client nonce ‖ server nonce); the client checks it and answers
 * HMAC-SHA256(k, "client" ‖ client nonce ‖ server nonce), which the server checks. k is
 * {@code secret.derive("ironloop-sites-v1")} ({@link JobSecret}); the secret itself never crosses the wire. Then
 * requests and answers follow as big-endian {@link DataOutputStream} fields: an operation name, the caller's site,
 * the operation's fields; the answer starts with a boolean (true: done; false: a UTF error message follows).
 * File bytes carry their CRC32C, checked by the receiver before it publishes them.
 *
 * <p>Not encrypted: checkpoint contents cross the inter-site link in the clear (authenticated, integrity-checked by
 * CRC32C, not by the MAC). Threading: one thread per connection.
 */
public final class ProtectorWire implements AutoCloseable {
    private static final int MAGIC = 0x494c5350; // "ILSP"
    private static final int VERSION = 1;
    private static final String PURPOSE = "ironloop-sites-v1";
    private static final int NONCE = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * The socket buffers asked for at both ends (the kernel may cap them, {@code net.core.rmem_max}/{@code wmem_max}): a
     * line's file streams at the link's bandwidth-delay product, not at the default window. A listening socket must
     * have it before it is bound ({@link #prepare(java.net.ServerSocket)}) for the window scale of what it accepts.
     */
    public static final int SOCKET_BUFFER = 4 << 20;
    /** The chunk a file travels in, read, checksummed and written as it arrives. */
    public static final int CHUNK = 1 << 20;

    private final Socket socket;
    /** Requests (client) or answers (server). */
    public final DataOutputStream out;
    /** Answers (client) or requests (server). */
    public final DataInputStream in;

    private ProtectorWire(Socket socket) throws IOException {
        this.socket = socket;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
    }

    /**
     * Connects to a protector and authenticates both ends.
     *
     * @param to the protector's address
     * @param secret the job secret
     * @param timeout for the connection and for every read
     * @throws IOException if it cannot connect, times out, or the other end does not prove the secret
     */
    public static ProtectorWire connect(InetSocketAddress to, JobSecret secret, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.setSendBufferSize(SOCKET_BUFFER);
            s.setReceiveBufferSize(SOCKET_BUFFER);
            s.connect(to, (int) Math.max(1, timeout.toMillis()));
            s.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            s.setTcpNoDelay(true);
            ProtectorWire w = new ProtectorWire(s);
            byte[] mine = nonce();
            w.out.writeInt(MAGIC);
            w.out.writeInt(VERSION);
            w.out.write(mine);
            w.out.flush();
            byte[] theirs = w.in.readNBytes(NONCE);
            byte[] proof = w.in.readNBytes(32);
            if (theirs.length != NONCE || !MessageDigest.isEqual(proof, mac(secret, "server", mine, theirs))) {
                throw new IOException("the protector at " + to + " does not hold this job's secret (or is not a protector)");
            }
            w.out.write(mac(secret, "client", mine, theirs));
            w.out.flush();
            return w;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Authenticates an accepted connection.
     *
     * @throws IOException if the client does not speak the protocol or does not prove the secret
     */
    public static ProtectorWire accept(Socket s, JobSecret secret, Duration timeout) throws IOException {
        s.setSendBufferSize(SOCKET_BUFFER);
        s.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        s.setTcpNoDelay(true);
        ProtectorWire w = new ProtectorWire(s);
        int magic = w.in.readInt();
        int version = w.in.readInt();
        if (magic != MAGIC || version != VERSION) {
            throw new IOException("not a site protector's connection (magic " + Integer.toHexString(magic) + ", version " + version + ")");
        }
        byte[] theirs = w.in.readNBytes(NONCE);
        byte[] mine = nonce();
        w.out.write(mine);
        w.out.write(mac(secret, "server", theirs, mine));
        w.out.flush();
        byte[] proof = w.in.readNBytes(32);
        if (!MessageDigest.isEqual(proof, mac(secret, "client", theirs, mine))) {
            throw new IOException("a connection from " + s.getRemoteSocketAddress() + " did not prove the job secret; refused");
        }
        return w;
    }

    /**
     * Gives a protector's listening socket, not yet bound, the receive buffer of {@link #SOCKET_BUFFER}.
     *
     * @return {@code server}
     */
    public static java.net.ServerSocket prepare(java.net.ServerSocket server) throws IOException {
        server.setReceiveBufferSize(SOCKET_BUFFER);
        return server;
    }

    /** Reads an answer's status; throws its error message. */
    public void expectOk(String what) throws IOException {
        out.flush();
        if (!in.readBoolean()) {
            throw new IOException(what + " refused by the protector at " + socket.getRemoteSocketAddress() + ": " + in.readUTF());
        }
    }

    /** Extends the read timeout (a long transfer). */
    public void timeout(Duration d) throws IOException {
        socket.setSoTimeout((int) Math.max(1, d.toMillis()));
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    private static byte[] mac(JobSecret secret, String role, byte[] client, byte[] server) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(secret.derive(PURPOSE), "HmacSHA256"));
            m.update(role.getBytes(StandardCharsets.US_ASCII));
            m.update(client);
            return m.doFinal(server);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a socket: nothing left to do
        }
    }
}
