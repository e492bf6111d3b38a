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
 * anything else is read: the client sends {@code ILSP}, version 2, its mode (one byte: 0 in the clear, 1 encrypted)
 * and a 16-byte nonce; the server answers its own mode — if the two differ, both ends refuse the connection, saying
 * that {@code SITE_ENCRYPT} differs — then its nonce and HMAC-SHA256(k, "server" ‖ mode ‖ client nonce ‖ server nonce);
 * the client checks it and answers HMAC-SHA256(k, "client" ‖ mode ‖ client nonce ‖ server nonce), which the server
 * checks (the mode is under both MACs: nobody on the way can turn encryption off). k is
 * {@code secret.derive("ironloop-sites-v1")} ({@link JobSecret}); the secret itself never crosses the wire. Then
 * requests and answers follow as big-endian {@link DataOutputStream} fields: an operation name, the caller's site,
 * the operation's fields; the answer starts with a boolean (true: done; false: a UTF error message follows).
 * File bytes carry their CRC32C, checked by the receiver before it publishes them.
 *
 * <p>Encrypted ({@code SITE_ENCRYPT}), everything after the handshake travels in AES-GCM frames under per-connection,
 * per-direction keys ({@link SealedStreams}); a frame that fails its tag closes the connection
 * ({@link SealedStreams.TamperedFrameException}). In the clear, checkpoint contents cross the inter-site link
 * authenticated at the handshake and integrity-checked by CRC32C, not by a MAC. Threading: one thread per connection.
 */
public final class ProtectorWire implements AutoCloseable {
    private static final int MAGIC = 0x494c5350; // "ILSP"
    private static final int VERSION = 2;
    private static final byte CLEAR = 0;
    private static final byte ENCRYPTED = 1;
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
        this(socket, new BufferedInputStream(socket.getInputStream(), 1 << 16), socket.getOutputStream());
    }

    /** {@code in}: buffered already (the handshake's read-ahead stays in it). */
    private ProtectorWire(Socket socket, java.io.InputStream in, java.io.OutputStream out) {
        this.socket = socket;
        this.out = new DataOutputStream(new BufferedOutputStream(out, 1 << 16));
        this.in = new DataInputStream(in);
    }

    /**
     * The wire after a handshake in {@code mode}: this one in the clear, or one whose both directions are sealed with
     * keys derived from k and both nonces.
     */
    private ProtectorWire after(byte mode, JobSecret secret, byte[] client, byte[] server, boolean isClient) throws IOException {
        if (mode == CLEAR) {
            return this;
        }
        byte[] k = secret.derive(PURPOSE);
        byte[] sending = SealedStreams.directionKey(k, client, server, isClient);
        byte[] receiving = SealedStreams.directionKey(k, client, server, !isClient);
        java.io.InputStream buffered = in; // the handshake's read-ahead: the peer's first frames may be in it
        return new ProtectorWire(socket, new SealedStreams.Opening(buffered, receiving, String.valueOf(socket.getRemoteSocketAddress())),
                new SealedStreams.Sealing(new BufferedOutputStream(socket.getOutputStream(), 1 << 16), sending));
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
        return connect(to, secret, false, timeout);
    }

    /**
     * Connects to a protector and authenticates both ends; with {@code encrypt}, everything after the handshake is
     * encrypted ({@code SITE_ENCRYPT}).
     *
     * @param to the protector's address
     * @param secret the job secret
     * @param encrypt whether this protector encrypts ({@code SITE_ENCRYPT}); the other end must agree
     * @param timeout for the connection and for every read
     * @throws IOException if it cannot connect, times out, the other end does not prove the secret, or its
     *     {@code SITE_ENCRYPT} differs
     */
    public static ProtectorWire connect(InetSocketAddress to, JobSecret secret, boolean encrypt, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.setSendBufferSize(SOCKET_BUFFER);
            s.setReceiveBufferSize(SOCKET_BUFFER);
            s.connect(to, (int) Math.max(1, timeout.toMillis()));
            s.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            s.setTcpNoDelay(true);
            ProtectorWire w = new ProtectorWire(s);
            byte[] mine = nonce();
            byte mode = encrypt ? ENCRYPTED : CLEAR;
            w.out.writeInt(MAGIC);
            w.out.writeInt(VERSION);
            w.out.writeByte(mode);
            w.out.write(mine);
            w.out.flush();
            int theirMode = w.in.read();
            if (theirMode >= 0 && theirMode != mode) {
                throw new IOException("the protector at " + to + (encrypt ? " does not encrypt (SITE_ENCRYPT false there) and this one does"
                        : " encrypts (SITE_ENCRYPT true there) and this one does not") + ": refused; give every protector of the job the same SITE_ENCRYPT");
            }
            byte[] theirs = w.in.readNBytes(NONCE);
            byte[] proof = w.in.readNBytes(32);
            if (theirMode < 0 || theirs.length != NONCE || !MessageDigest.isEqual(proof, mac(secret, "server", mode, mine, theirs))) {
                throw new IOException("the protector at " + to + " does not hold this job's secret (or is not a protector)");
            }
            w.out.write(mac(secret, "client", mode, mine, theirs));
            w.out.flush();
            return w.after(mode, secret, mine, theirs, true);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Authenticates an accepted connection, in the clear.
     *
     * @throws IOException if the client does not speak the protocol or does not prove the secret
     */
    public static ProtectorWire accept(Socket s, JobSecret secret, Duration timeout) throws IOException {
        return accept(s, secret, false, timeout);
    }

    /**
     * Authenticates an accepted connection; with {@code encrypt}, everything after the handshake is encrypted.
     *
     * @param encrypt whether this protector encrypts ({@code SITE_ENCRYPT}); a client that does not agree is refused
     * @throws IOException if the client does not speak the protocol, does not prove the secret, or its
     *     {@code SITE_ENCRYPT} differs
     */
    public static ProtectorWire accept(Socket s, JobSecret secret, boolean encrypt, Duration timeout) throws IOException {
        s.setSendBufferSize(SOCKET_BUFFER);
        s.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        s.setTcpNoDelay(true);
        ProtectorWire w = new ProtectorWire(s);
        int magic = w.in.readInt();
        int version = w.in.readInt();
        if (magic != MAGIC || version != VERSION) {
            throw new IOException("not a site protector's connection (magic " + Integer.toHexString(magic) + ", version " + version + ")");
        }
        byte theirMode = w.in.readByte();
        byte[] theirs = w.in.readNBytes(NONCE);
        byte mode = encrypt ? ENCRYPTED : CLEAR;
        w.out.writeByte(mode);
        if (theirMode != mode) {
            w.out.flush();
            throw new IOException("a connection from " + s.getRemoteSocketAddress() + (encrypt ? " is not encrypted and SITE_ENCRYPT is true here"
                    : " asks for encryption and SITE_ENCRYPT is false here") + ": refused; give every protector of the job the same SITE_ENCRYPT");
        }
        byte[] mine = nonce();
        w.out.write(mine);
        w.out.write(mac(secret, "server", mode, theirs, mine));
        w.out.flush();
        byte[] proof = w.in.readNBytes(32);
        if (!MessageDigest.isEqual(proof, mac(secret, "client", mode, theirs, mine))) {
            throw new IOException("a connection from " + s.getRemoteSocketAddress() + " did not prove the job secret; refused");
        }
        return w.after(mode, secret, theirs, mine, false);
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

    private static byte[] mac(JobSecret secret, String role, byte mode, byte[] client, byte[] server) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(secret.derive(PURPOSE), "HmacSHA256"));
            m.update(role.getBytes(StandardCharsets.US_ASCII));
            m.update(mode);
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
