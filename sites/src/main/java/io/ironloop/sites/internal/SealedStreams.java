package io.ironloop.sites.internal;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The encrypted frames of a protector connection after its handshake ({@code SITE_ENCRYPT}), composed of standard
 * primitives of the JDK only:
 * <ul>
 *   <li>one AES-256 key per direction, from HKDF-SHA256 (RFC 5869): input key material the key the handshake's MACs use
 *       (derived from the job secret), salt client nonce ‖ server nonce, info {@code "ironloop-sites-v2 client to server"}
 *       or {@code "… server to client"} — fresh keys for every connection, different in each direction;</li>
 *   <li>every frame is {@code length} (4 bytes, big-endian: the ciphertext's, tag included) then AES-GCM's ciphertext and
 *       16-byte tag, with the frame's number in its direction (0, 1, …) as the 12-byte nonce (4 zero bytes, the number as 8
 *       big-endian bytes) and the length field as additional authenticated data: a frame altered, dropped, repeated or
 *       reordered fails its tag.</li>
 * </ul>
 * A frame whose tag does not verify ends the connection with {@link TamperedFrameException}. A frame holds at most
 * {@link #MAX_FRAME} bytes of plaintext (larger writes are split).
 *
 * <p>Threading: each stream is for one thread.
 */
final class SealedStreams {
    /**
     * The plaintext of one frame, at most: 64 KiB. The JDK 17's AES-GCM runs about 40 times slower on 1 MiB frames than
     * on 64 KiB ones here (0.012 against 0.6 GB/s, encryption and decryption, measured on this machine).
     */
    static final int MAX_FRAME = 64 << 10;
    private static final int TAG_BYTES = 16;
    private static final int NONCE_BYTES = 12;
    private static final String INFO = "ironloop-sites-v2 ";

    private SealedStreams() {
    }

    /** A frame failed its authentication: the connection was altered or corrupted on its way. */
    static final class TamperedFrameException extends IOException {
        private static final long serialVersionUID = 1L;

        TamperedFrameException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The key of one direction: HKDF-SHA256 of {@code key} with salt {@code clientNonce ‖ serverNonce}.
     *
     * @param clientToServer which direction
     */
    static byte[] directionKey(byte[] key, byte[] clientNonce, byte[] serverNonce, boolean clientToServer) {
        byte[] salt = new byte[clientNonce.length + serverNonce.length];
        System.arraycopy(clientNonce, 0, salt, 0, clientNonce.length);
        System.arraycopy(serverNonce, 0, salt, clientNonce.length, serverNonce.length);
        String info = INFO + (clientToServer ? "client to server" : "server to client");
        return hkdf(salt, key, info.getBytes(StandardCharsets.US_ASCII), 32);
    }

    /**
     * HKDF-SHA256 (RFC 5869): extract then expand to {@code length} bytes.
     *
     * @throws IllegalArgumentException if {@code length} exceeds 255 × 32
     */
    static byte[] hkdf(byte[] salt, byte[] inputKey, byte[] info, int length) {
        if (length > 255 * 32) {
            throw new IllegalArgumentException("HKDF-SHA256 gives at most 8160 bytes, not " + length);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(salt.length == 0 ? new byte[32] : salt, "HmacSHA256"));
            byte[] prk = mac.doFinal(inputKey);
            mac.init(new SecretKeySpec(prk, "HmacSHA256"));
            byte[] out = new byte[length];
            byte[] t = new byte[0];
            for (int i = 1, at = 0; at < length; i++) {
                mac.update(t);
                mac.update(info);
                mac.update((byte) i);
                t = mac.doFinal();
                System.arraycopy(t, 0, out, at, Math.min(t.length, length - at));
                at += t.length;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    private static Cipher cipher() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available in this JVM", e);
        }
    }

    private static GCMParameterSpec nonce(long frame) {
        byte[] n = new byte[NONCE_BYTES];
        ByteBuffer.wrap(n).putLong(4, frame);
        return new GCMParameterSpec(TAG_BYTES * 8, n);
    }

    /** Encrypts what is written into frames; {@link #flush()} passes them on. */
    static final class Sealing extends OutputStream {
        private final OutputStream out;
        private final SecretKeySpec key;
        private final Cipher cipher = cipher();
        private final byte[] header = new byte[4];
        private byte[] sealed = new byte[0];
        private long frame;

        Sealing(OutputStream out, byte[] key) {
            this.out = out;
            this.key = new SecretKeySpec(key, "AES");
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                int n = Math.min(len, MAX_FRAME);
                seal(b, off, n);
                off += n;
                len -= n;
            }
        }

        private void seal(byte[] b, int off, int len) throws IOException {
            int length = len + TAG_BYTES;
            ByteBuffer.wrap(header).putInt(length);
            if (sealed.length < length) {
                sealed = new byte[length];
            }
            try {
                cipher.init(Cipher.ENCRYPT_MODE, key, nonce(frame++));
                cipher.updateAAD(header);
                cipher.doFinal(b, off, len, sealed, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM refused a frame of " + len + " bytes", e);
            }
            out.write(header);
            out.write(sealed, 0, length);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** Reads frames and decrypts them; a frame that fails its tag throws {@link TamperedFrameException}. */
    static final class Opening extends InputStream {
        private final DataInputStream in;
        private final SecretKeySpec key;
        private final String peer;
        private final Cipher cipher = cipher();
        private final byte[] header = new byte[4];
        private byte[] sealed = new byte[0];
        private byte[] plain = new byte[0];
        private int at;
        private int end;
        private long frame;

        /** {@code peer}: who sends, for the messages. */
        Opening(InputStream in, byte[] key, String peer) {
            this.in = new DataInputStream(in);
            this.key = new SecretKeySpec(key, "AES");
            this.peer = peer;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return plain[at++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, end - at);
            System.arraycopy(plain, at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public int available() {
            return end - at;
        }

        /** Opens the next frame if the current one is used up; false at the end of the stream (between frames). */
        private boolean fill() throws IOException {
            while (at == end) {
                int first = in.read();
                if (first < 0) {
                    return false;
                }
                header[0] = (byte) first;
                in.readFully(header, 1, 3);
                int length = ByteBuffer.wrap(header).getInt();
                if (length < TAG_BYTES || length > MAX_FRAME + TAG_BYTES) {
                    throw new TamperedFrameException("an encrypted frame from " + peer + " states " + length + " bytes (at most "
                            + (MAX_FRAME + TAG_BYTES) + "): the connection was altered or is not encrypted; closed", null);
                }
                if (sealed.length < length) {
                    sealed = new byte[length];
                    plain = new byte[length];
                }
                try {
                    in.readFully(sealed, 0, length);
                } catch (EOFException e) {
                    throw new EOFException("the connection from " + peer + " ended inside an encrypted frame");
                }
                try {
                    cipher.init(Cipher.DECRYPT_MODE, key, nonce(frame++));
                    cipher.updateAAD(header);
                    end = cipher.doFinal(sealed, 0, length, plain, 0);
                    at = 0;
                } catch (AEADBadTagException e) {
                    throw new TamperedFrameException("frame " + (frame - 1) + " from " + peer + " failed its authentication (AES-GCM tag):"
                            + " the connection was altered on its way, or the other end does not hold this job's secret; closed", e);
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("AES-GCM refused a frame of " + length + " bytes", e);
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
