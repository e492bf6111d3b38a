package io.ironloop.sites.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.launch.JobSecret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protector connection's handshake and its encrypted frames ({@code SITE_ENCRYPT}) over real loopback sockets: a
 * server end in a thread of the test, and a tap between the two ends that records the bytes the client sends and can
 * flip one of them.
 */
class ProtectorWireTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String MARKER = "site checkpoint bytes, not for the eyes of the network";

    @TempDir
    Path dir;

    private JobSecret secret;
    private ServerSocket server;
    private Tap tap;

    @BeforeEach
    void open() throws IOException {
        secret = JobSecret.create(dir, "wire");
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void close() throws IOException {
        if (tap != null) {
            tap.close();
        }
        server.close();
    }

    @Test
    void hkdf_rfc5869TestCase1_givesTheRfcsOutput() {
        HexFormat hex = HexFormat.of();
        byte[] okm = SealedStreams.hkdf(hex.parseHex("000102030405060708090a0b0c"), hex.parseHex("0b".repeat(22)),
                hex.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
        assertThat(hex.formatHex(okm)).isEqualTo("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @Test
    void roundTrip_encrypted_carriesFramesBothWaysAndNothingInTheClear() throws Exception {
        byte[] file = new byte[3 * SealedStreams.MAX_FRAME + 12345]; // several frames, one partly filled
        new Random(7).nextBytes(file);
        CompletableFuture<byte[]> served = serve(true, w -> {
            String op = w.in.readUTF();
            byte[] got = w.in.readNBytes(w.in.readInt());
            w.out.writeUTF("echo " + op);
            w.out.write(got);
            w.out.flush();
            return got;
        });
        tap = new Tap(server.getLocalPort(), -1);
        try (ProtectorWire w = ProtectorWire.connect(tap.address(), secret, true, TIMEOUT)) {
            w.out.writeUTF(MARKER);
            w.out.writeInt(file.length);
            w.out.write(file);
            w.out.flush();
            assertThat(w.in.readUTF()).isEqualTo("echo " + MARKER);
            assertThat(w.in.readNBytes(file.length)).isEqualTo(file);
        }
        assertThat(served.get(30, TimeUnit.SECONDS)).isEqualTo(file);
        String onTheWire = tap.sent().toString(StandardCharsets.ISO_8859_1);
        assertThat(onTheWire).doesNotContain(MARKER);
        assertThat(tap.sent().size()).as("the handshake, then the frames with their headers and tags").isGreaterThan(file.length);
    }

    @Test
    void roundTrip_clear_marksTheTapSoTheEncryptedTestIsNotVacuous() throws Exception {
        CompletableFuture<byte[]> served = serve(false, w -> {
            w.out.writeUTF("echo " + w.in.readUTF());
            w.out.flush();
            return new byte[0];
        });
        tap = new Tap(server.getLocalPort(), -1);
        try (ProtectorWire w = ProtectorWire.connect(tap.address(), secret, false, TIMEOUT)) {
            w.out.writeUTF(MARKER);
            w.out.flush();
            assertThat(w.in.readUTF()).isEqualTo("echo " + MARKER);
        }
        served.get(30, TimeUnit.SECONDS);
        assertThat(tap.sent().toString(StandardCharsets.ISO_8859_1)).contains(MARKER);
    }

    @Test
    void read_tamperedByte_refusedWithTheReasonAndTheConnectionEnds() throws Exception {
        CompletableFuture<byte[]> served = serve(true, w -> {
            w.in.readUTF();
            return new byte[0];
        });
        // the handshake is 4 + 4 + 1 + 16 + 32 bytes from the client; flip a byte inside its first frame's ciphertext
        tap = new Tap(server.getLocalPort(), 57 + 4 + 3);
        try (ProtectorWire w = ProtectorWire.connect(tap.address(), secret, true, TIMEOUT)) {
            w.out.writeUTF(MARKER);
            w.out.flush();
            assertThatThrownBy(() -> served.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(SealedStreams.TamperedFrameException.class)
                    .hasMessageContaining("frame 0").hasMessageContaining("failed its authentication (AES-GCM tag)");
            assertThat(w.in.read()).as("the server closed the connection").isEqualTo(-1);
        }
    }

    @Test
    void connect_clearClientToEncryptingServer_refusedAtBothEndsNamingSiteEncrypt() throws Exception {
        CompletableFuture<byte[]> served = serve(true, w -> new byte[0]);
        InetSocketAddress to = (InetSocketAddress) server.getLocalSocketAddress();
        assertThatThrownBy(() -> ProtectorWire.connect(to, secret, false, TIMEOUT)).isInstanceOf(IOException.class)
                .hasMessageContaining("encrypts (SITE_ENCRYPT true there) and this one does not")
                .hasMessageContaining("give every protector of the job the same SITE_ENCRYPT");
        assertThatThrownBy(() -> served.get(30, TimeUnit.SECONDS)).cause()
                .hasMessageContaining("is not encrypted and SITE_ENCRYPT is true here: refused");
    }

    @Test
    void connect_encryptingClientToClearServer_refused() throws Exception {
        CompletableFuture<byte[]> served = serve(false, w -> new byte[0]);
        InetSocketAddress to = (InetSocketAddress) server.getLocalSocketAddress();
        assertThatThrownBy(() -> ProtectorWire.connect(to, secret, true, TIMEOUT)).isInstanceOf(IOException.class)
                .hasMessageContaining("does not encrypt (SITE_ENCRYPT false there) and this one does");
        assertThatThrownBy(() -> served.get(30, TimeUnit.SECONDS)).cause()
                .hasMessageContaining("asks for encryption and SITE_ENCRYPT is false here");
    }

    @Test
    void connect_encryptedWithWrongSecret_refused() throws Exception {
        CompletableFuture<byte[]> served = serve(true, w -> new byte[0]);
        JobSecret other = JobSecret.create(dir, "other");
        InetSocketAddress to = (InetSocketAddress) server.getLocalSocketAddress();
        assertThatThrownBy(() -> ProtectorWire.connect(to, other, true, TIMEOUT)).isInstanceOf(IOException.class)
                .hasMessageContaining("does not hold this job's secret");
        assertThatThrownBy(() -> served.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @FunctionalInterface
    private interface Serving {
        byte[] on(ProtectorWire w) throws IOException;
    }

    /** Accepts one connection, authenticates it and serves it; completes with what {@code serving} returns or its failure. */
    private CompletableFuture<byte[]> serve(boolean encrypt, Serving serving) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket s = server.accept(); ProtectorWire w = ProtectorWire.accept(s, secret, encrypt, TIMEOUT)) {
                return serving.on(w);
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    /** A relay to a local port that records what the client sends and flips the byte at one offset (-1: none). */
    private static final class Tap implements AutoCloseable {
        private final ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        private final Thread thread;

        Tap(int port, long flipAt) throws IOException {
            thread = new Thread(() -> {
                try (Socket client = listening.accept(); Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    Thread back = new Thread(() -> pump(upstream, client));
                    back.setDaemon(true);
                    back.start();
                    InputStream in = client.getInputStream();
                    OutputStream out = upstream.getOutputStream();
                    long at = 0;
                    byte[] buf = new byte[1 << 16];
                    for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                        synchronized (sent) {
                            sent.write(buf, 0, n);
                        }
                        if (flipAt >= at && flipAt < at + n) {
                            buf[(int) (flipAt - at)] ^= 0x01;
                        }
                        out.write(buf, 0, n);
                        at += n;
                    }
                    back.join(10_000);
                } catch (IOException e) {
                    // one end closed: the relay ends
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        private static void pump(Socket from, Socket to) {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
                to.shutdownOutput();
            } catch (IOException e) {
                // one end closed
            }
        }

        InetSocketAddress address() {
            return (InetSocketAddress) listening.getLocalSocketAddress();
        }

        ByteArrayOutputStream sent() {
            synchronized (sent) {
                ByteArrayOutputStream copy = new ByteArrayOutputStream();
                copy.writeBytes(sent.toByteArray());
                return copy;
            }
        }

        @Override
        public void close() throws IOException {
            listening.close();
        }
    }
}
