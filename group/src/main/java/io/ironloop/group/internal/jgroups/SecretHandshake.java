package io.ironloop.group.internal.jgroups;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mutual challenge–response authentication of every TCP connection with the job secret, before JGroups
 * reads a single byte from it: a process without the secret can neither join nor inject any message
 * (membership, failure detection, data). Both sides send a fresh 32-byte nonce and prove knowledge of the
 * secret with HMAC-SHA256 over both nonces and their role; the secret itself never crosses the wire.
 *
 * <pre>
 * client → server: "ILHS1" ‖ nc
 * server → client: "ILHS1" ‖ ns ‖ HMAC(k, "server" ‖ nc ‖ ns)
 * client → server: HMAC(k, "client" ‖ nc ‖ ns)
 * </pre>
 * where {@code k = HMAC(secret, "ironloop-handshake-v1")}.
 */
public final class SecretHandshake {
    private static final Logger LOG = LoggerFactory.getLogger(SecretHandshake.class);
    private static final byte[] MAGIC = "ILHS1".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE = 32;
    private static final int TIMEOUT_MILLIS = 3000;

    private final byte[] key;
    private final SecureRandom random = new SecureRandom();
    private final LongAdder refused = new LongAdder();

    public SecretHandshake(byte[] secret) {
        this.key = hmac(secret, "ironloop-handshake-v1".getBytes(StandardCharsets.US_ASCII));
    }

    /** Connections refused because the peer could not prove it holds the job secret. */
    public long refusedConnections() {
        return refused.sum();
    }

    /** Derives a key for another purpose (e.g. encryption) from the job secret. */
    public static byte[] derive(byte[] secret, String purpose) {
        return hmac(secret, purpose.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Runs the client side on a freshly connected socket.
     *
     * @throws IOException if the server does not prove it holds the secret
     */
    void asClient(Socket s) throws IOException {
        int oldTimeout = s.getSoTimeout();
        s.setSoTimeout(TIMEOUT_MILLIS);
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] nc = nonce();
        out.write(concat(MAGIC, nc));
        out.flush();
        byte[] magic = new byte[MAGIC.length];
        byte[] ns = new byte[NONCE];
        byte[] mac = new byte[32];
        in.readFully(magic);
        in.readFully(ns);
        in.readFully(mac);
        if (!Arrays.equals(magic, MAGIC) || !MessageDigest.isEqual(mac, proof("server", nc, ns))) {
            throw new IOException("peer " + s.getRemoteSocketAddress() + " does not hold this job's secret; not connecting to it");
        }
        out.write(proof("client", nc, ns));
        out.flush();
        s.setSoTimeout(oldTimeout);
    }

    /** Runs the server side on an accepted socket; returns false (and logs) if the client is refused. */
    boolean asServer(Socket s) {
        try {
            int oldTimeout = s.getSoTimeout();
            s.setSoTimeout(TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                return refuse(s, "it did not start the Ironloop handshake (a process without the job secret, or not an Ironloop rank)");
            }
            byte[] nc = new byte[NONCE];
            in.readFully(nc);
            byte[] ns = nonce();
            OutputStream out = s.getOutputStream();
            out.write(concat(MAGIC, ns, proof("server", nc, ns)));
            out.flush();
            byte[] mac = new byte[32];
            in.readFully(mac);
            if (!MessageDigest.isEqual(mac, proof("client", nc, ns))) {
                return refuse(s, "its proof of the job secret is wrong");
            }
            s.setSoTimeout(oldTimeout);
            return true;
        } catch (IOException e) {
            return refuse(s, "the handshake failed: " + e.getMessage());
        }
    }

    private boolean refuse(Socket s, String why) {
        refused.increment();
        LOG.warn("refused connection from {}: {}; all its messages are dropped", s.getRemoteSocketAddress(), why);
        return false;
    }

    private byte[] nonce() {
        byte[] n = new byte[NONCE];
        random.nextBytes(n);
        return n;
    }

    private byte[] proof(String role, byte[] nc, byte[] ns) {
        return hmac(key, concat(role.getBytes(StandardCharsets.US_ASCII), nc, ns));
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
