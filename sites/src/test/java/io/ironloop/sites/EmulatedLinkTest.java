package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An {@link EmulatedLink} in front of an echo server on loopback: delay, bandwidth cap, cut and heal, reset. */
class EmulatedLinkTest {
    private ServerSocket echo;
    private Thread echoThread;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        echoThread = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread t = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // the test closed it
                        }
                    });
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        echoThread.setDaemon(true);
        echoThread.start();
    }

    @AfterEach
    void stopEcho() throws Exception {
        echo.close();
        echoThread.join(5000);
    }

    @Test
    void roundTrip_delayedLink_takesTwiceTheDelayAndKeepsTheBytes() throws IOException {
        try (EmulatedLink link = EmulatedLink.start((java.net.InetSocketAddress) echo.getLocalSocketAddress(),
                new EmulatedLink.Shape(Duration.ofMillis(25), 0)); Socket s = new Socket()) {
            s.connect(link.address());
            s.setSoTimeout(10_000);
            long t0 = System.nanoTime();
            s.getOutputStream().write(new byte[] {42});
            int back = s.getInputStream().read();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(back).isEqualTo(42);
            assertThat(ms).as("one byte there and back over a link of 25 ms each way").isGreaterThanOrEqualTo(50);
        }
    }

    @Test
    void transfer_cappedLink_takesAtLeastBytesOverBandwidth() throws IOException {
        byte[] sent = new byte[1 << 20];
        new Random(3).nextBytes(sent);
        // 32 Mbit/s = 4 MB/s each way: 1 MiB takes at least 0.26 s through the link
        try (EmulatedLink link = EmulatedLink.start((java.net.InetSocketAddress) echo.getLocalSocketAddress(),
                EmulatedLink.Shape.of(Duration.ZERO, 32_000_000)); Socket s = new Socket()) {
            s.connect(link.address());
            s.setSoTimeout(30_000);
            long t0 = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(sent);
                } catch (IOException e) {
                    // the read below fails then
                }
            });
            writer.start();
            byte[] got = new DataInputStream(s.getInputStream()).readNBytes(sent.length);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(got).isEqualTo(sent);
            assertThat(seconds).isGreaterThanOrEqualTo(sent.length / 4e6 * 0.95);
        }
    }

    @Test
    void cut_thenHeal_holdsTheBytesThenDeliversThem() throws IOException {
        try (EmulatedLink link = EmulatedLink.start((java.net.InetSocketAddress) echo.getLocalSocketAddress(), EmulatedLink.Shape.NONE);
                Socket s = new Socket()) {
            s.connect(link.address());
            s.setSoTimeout(300);
            s.getOutputStream().write(1);
            assertThat(s.getInputStream().read()).isEqualTo(1);

            link.cut();
            s.getOutputStream().write(2);
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            try (Socket late = new Socket()) { // a connection opened while cut: accepted, but nothing crosses
                late.connect(link.address());
                late.setSoTimeout(300);
                late.getOutputStream().write(3);
                assertThatThrownBy(() -> late.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

                link.heal();
                s.setSoTimeout(10_000);
                late.setSoTimeout(10_000);
                assertThat(s.getInputStream().read()).isEqualTo(2);
                assertThat(late.getInputStream().read()).isEqualTo(3);
            }
        }
    }

    @Test
    void reset_endsOpenConnections_newOnesWork() throws IOException {
        try (EmulatedLink link = EmulatedLink.start((java.net.InetSocketAddress) echo.getLocalSocketAddress(), EmulatedLink.Shape.NONE);
                Socket s = new Socket()) {
            s.connect(link.address());
            s.setSoTimeout(10_000);
            s.getOutputStream().write(1);
            assertThat(s.getInputStream().read()).isEqualTo(1);

            link.reset();
            assertThatThrownBy(() -> {
                s.getOutputStream().write(2);
                if (s.getInputStream().read() < 0) {
                    throw new java.io.EOFException("closed by the link");
                }
            }).isInstanceOf(IOException.class);
            try (Socket again = new Socket()) {
                again.connect(link.address());
                again.setSoTimeout(10_000);
                again.getOutputStream().write(4);
                assertThat(again.getInputStream().read()).isEqualTo(4);
            }
        }
    }

    @Test
    void shape_negativeDelay_refused() {
        assertThatThrownBy(() -> new EmulatedLink.Shape(Duration.ofMillis(-1), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
    }
}
