package io.ironloop.group.internal.jgroups;

import io.ironloop.group.launch.JobSecret;
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
 * Mutual authentication of every TCP connection with the job secret, before JGroups reads a single byte
 * from it: a process without the secret can neither join nor inject any message (membership, failure
 * detection, data). The secret itself never crosses the wire.
 *
 * <pre>
 * client → server: "ILHS2" ‖ nc ‖ t ‖ HMAC(k, "client" ‖ nc ‖ t)     (written at connect, never waits)
 * server → client: "ILHS2" ‖ ns ‖ HMAC(k, "server" ‖ nc ‖ ns)        (checked on the client's first read)
 * </pre>
 * where {@code k = HMAC(secret, "ironloop-handshake-v2")}, {@code nc, ns} are fresh 32-byte nonces and
 * {@code t} the client's clock in milliseconds. The server refuses a client proof older than two minutes
 * or whose nonce it has seen before (replay). The client never waits for the server while connecting:
 * JGroups connects on sending threads, and a peer that is stopped (SIGSTOP) must not stall them.
 */
public final class SecretHandshake {
    private static final Logger LOG = LoggerFactory.getLogger(SecretHandshake.class);
    private static final byte[] MAGIC = "ILHS2".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE = 32;
    private static final int TIMEOUT_MILLIS = 3000;

    private final byte[] key;
    private final SecureRandom random = new SecureRandom();
    private final LongAdder refused = new LongAdder();
    private static final long MAX_AGE_MILLIS = 120_000;
    private final java.util.Map<String, Boolean> seen = new java.util.LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) {
            return size() > 100_000;
        }
    };

    public SecretHandshake(JobSecret secret) {
        this.key = secret.derive("ironloop-handshake-v2");
    }

    /** Connections refused because the peer could not prove it holds the job secret. */
    public long refusedConnections() {
        return refused.sum();
    }

    /** Writes the client's proof on a freshly connected socket; does not wait for the server. */
    void clientHello(Socket s, byte[] nc) throws IOException {
        long t = System.currentTimeMillis();
        byte[] time = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(t).array();
        OutputStream out = s.getOutputStream();
        out.write(concat(MAGIC, nc, time, proof("client", nc, time)));
        out.flush();
    }

    /**
     * Reads and checks the server's answer to {@code nc}, on the client's first read.
     *
     * @throws IOException if the server does not prove it holds the secret
     */
    void verifyServer(java.io.InputStream raw, byte[] nc, java.net.SocketAddress peer) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        byte[] magic = new byte[MAGIC.length];
        byte[] ns = new byte[NONCE];
        byte[] mac = new byte[32];
        in.readFully(magic);
        in.readFully(ns);
        in.readFully(mac);
        if (!Arrays.equals(magic, MAGIC) || !MessageDigest.isEqual(mac, proof("server", nc, ns))) {
            refused.increment();
            LOG.warn("peer {} does not hold this job's secret; dropping the connection and everything it sent", peer);
            throw new IOException("peer " + peer + " does not hold this job's secret");
        }
    }

    /** Fresh client nonce. */
    byte[] clientNonce() {
        return nonce();
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
            byte[] time = new byte[Long.BYTES];
            byte[] mac = new byte[32];
            in.readFully(nc);
            in.readFully(time);
            in.readFully(mac);
            if (!MessageDigest.isEqual(mac, proof("client", nc, time))) {
                return refuse(s, "its proof of the job secret is wrong");
            }
            long age = System.currentTimeMillis() - java.nio.ByteBuffer.wrap(time).getLong();
            if (Math.abs(age) > MAX_AGE_MILLIS) {
                return refuse(s, "its proof is " + age / 1000 + " s old (a replay, or clocks more than 2 minutes apart)");
            }
            if (!remember(nc)) {
                return refuse(s, "its proof was used before (a replay)");
            }
            OutputStream out = s.getOutputStream();
            byte[] ns = nonce();
            out.write(concat(MAGIC, ns, proof("server", nc, ns)));
            out.flush();
            s.setSoTimeout(oldTimeout);
            return true;
        } catch (java.io.EOFException e) {
            return refuse(s, "it hung up during the handshake");
        } catch (IOException e) {
            return refuse(s, "the handshake failed: " + e);
        }
    }

    private synchronized boolean remember(byte[] nc) {
        String key = java.util.HexFormat.of().formatHex(nc);
        if (seen.containsKey(key)) {
            return false;
        }
        seen.put(key, Boolean.TRUE);
        return true;
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
