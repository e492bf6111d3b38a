package io.ironloop.group.jgroups;

import io.ironloop.group.launch.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.IronloopException;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.internal.Diagnostics;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.Version;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job secret: members without it are refused, their messages dropped; unsafe secrets rejected. */
class SecurityTest {
    @TempDir
    Path dir;

    @Test
    void join_withoutTheSecret_refusedAndGroupUnaffected() throws Exception {
        int[] ports = FreePorts.allocate(2);
        Path secret = LocalJob.secret(dir, "good", 1);
        Path wrong = LocalJob.secret(dir, "wrong", 2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<ProcessGroup> r0 = pool.submit(() -> LocalJob.join(0, ports, "sec", secret, GroupConfig.builder()));
            Future<ProcessGroup> r1 = pool.submit(() -> LocalJob.join(1, ports, "sec", secret, GroupConfig.builder()));
            ProcessGroup g0 = r0.get(30, TimeUnit.SECONDS);
            ProcessGroup g1 = r1.get(30, TimeUnit.SECONDS);
            try {
                int[] intruderPorts = {ports[0], FreePorts.allocate(1)[0]};
                assertThatThrownBy(() -> LocalJob.join(1, intruderPorts, "sec", wrong, GroupConfig.builder().joinTimeout(Duration.ofSeconds(3))))
                        .isInstanceOf(IronloopException.class).hasMessageContaining("only ranks [1] of 2 joined job sec");
                assertThat(Diagnostics.counts(g0).refusedConnections()).isPositive();
                Future<Double> s1 = pool.submit(() -> g1.allreduce(2.0, ReduceOp.SUM));
                assertThat(g0.allreduce(1.0, ReduceOp.SUM)).isEqualTo(3.0);
                assertThat(s1.get(10, TimeUnit.SECONDS)).isEqualTo(3.0);
                assertThat(g0.failedRanks()).isEmpty();
            } finally {
                closeTogether(pool, g0, g1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Closing is collective: both members close at the same time. */
    private static void closeTogether(ExecutorService pool, ProcessGroup a, ProcessGroup b) throws Exception {
        Future<?> f = pool.submit(a::close);
        b.close();
        f.get(40, TimeUnit.SECONDS);
    }

    @Test
    void forgedMessage_fromProcessWithoutSecret_droppedAndLogged() throws Exception {
        int[] ports = FreePorts.allocate(2);
        Path secret = LocalJob.secret(dir, "good", 3);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<ProcessGroup> r0 = pool.submit(() -> LocalJob.join(0, ports, "forge", secret, GroupConfig.builder()));
            Future<ProcessGroup> r1 = pool.submit(() -> LocalJob.join(1, ports, "forge", secret, GroupConfig.builder()));
            ProcessGroup g0 = r0.get(30, TimeUnit.SECONDS);
            ProcessGroup g1 = r1.get(30, TimeUnit.SECONDS);
            try {
                long refusedBefore = Diagnostics.counts(g0).refusedConnections();
                // A well-formed JGroups TCP connection (cookie, version, address) carrying a user message
                // with tag 5, as a process that knows the wire format but not the secret would send it.
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(bytes);
                out.write("bela".getBytes(StandardCharsets.US_ASCII));
                out.writeShort(Version.version);
                IpAddress self = new IpAddress(InetAddress.getLoopbackAddress(), 1);
                out.writeShort(self.serializedSize());
                self.writeTo(out);
                ByteArrayOutputStream msg = new ByteArrayOutputStream();
                Util.writeMessage(new BytesMessage(null, "forged".getBytes(StandardCharsets.UTF_8)), new DataOutputStream(msg), false);
                out.writeInt(msg.size());
                out.write(msg.toByteArray());
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ports[0])) {
                    OutputStream o = s.getOutputStream();
                    o.write(bytes.toByteArray());
                    o.flush();
                    s.getInputStream().read(); // the member answers the handshake and closes
                }
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> Diagnostics.counts(g0).refusedConnections() > refusedBefore);
                g1.send(0, 5, "genuine".getBytes(StandardCharsets.UTF_8));
                assertThat(new String(g0.receive(1, 5), StandardCharsets.UTF_8)).isEqualTo("genuine");
                assertThat(g0.failedRanks()).isEmpty();
            } finally {
                closeTogether(pool, g0, g1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void forgedDataFrame_fromProcessWithoutSecret_droppedAndLogged() throws Exception {
        int[] ports = FreePorts.allocate(2);
        Path secret = LocalJob.secret(dir, "good", 5);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<ProcessGroup> r0 = pool.submit(() -> LocalJob.join(0, ports, "forgedata", secret, GroupConfig.builder()));
            Future<ProcessGroup> r1 = pool.submit(() -> LocalJob.join(1, ports, "forgedata", secret, GroupConfig.builder()));
            ProcessGroup g0 = r0.get(30, TimeUnit.SECONDS);
            ProcessGroup g1 = r1.get(30, TimeUnit.SECONDS);
            try {
                int dataPort = Diagnostics.dataPort(g0);
                assertThat(dataPort).isPositive();
                long refusedBefore = Diagnostics.counts(g0).refusedConnections();
                // the handshake's magic with a made-up proof, the rank, then a point-to-point frame "from rank 1", tag 5
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(bytes);
                out.write("ILHS2".getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[32 + 8 + 32]);
                out.writeInt(1);
                byte[] forged = "forged".getBytes(StandardCharsets.UTF_8);
                out.writeInt(forged.length);
                out.writeInt(0);
                out.writeByte(0);
                out.writeLong(5);
                out.write(forged);
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), dataPort)) {
                    s.getOutputStream().write(bytes.toByteArray());
                    s.getOutputStream().flush();
                    int answer;
                    try {
                        answer = s.getInputStream().read();
                    } catch (java.net.SocketException reset) {
                        answer = -1; // closed with our frame unread: a reset
                    }
                    assertThat(answer).as("refused: closed without an answer").isEqualTo(-1);
                }
                assertThat(Diagnostics.counts(g0).refusedConnections()).isGreaterThan(refusedBefore);
                g1.send(0, 5, "genuine".getBytes(StandardCharsets.UTF_8));
                assertThat(new String(g0.receive(1, 5), StandardCharsets.UTF_8)).isEqualTo("genuine");
            } finally {
                closeTogether(pool, g0, g1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void secretFile_readableByOthers_configurationException() throws Exception {
        Path f = LocalJob.secret(dir, "open", 4);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> LocalJob.join(0, FreePorts.allocate(1), "open", f, GroupConfig.builder()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("chmod 600");
    }
}
