package io.ironloop.group.jgroups;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.RankEnvironment;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/** Test helper: free loopback ports, a job secret file, peer lists. */
public final class LocalJob {
    private LocalJob() {
    }

    private static final java.util.Random PORTS = new java.util.Random();

    /**
     * {@code n} distinct free loopback ports below the kernel's ephemeral range (32768 and up on Linux), so
     * that no outgoing connection of any process takes one before its rank binds it.
     */
    public static synchronized int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            while (true) {
                int p = 20000 + PORTS.nextInt(12000);
                if (taken.contains(p) || taken.contains(p - 100) || taken.contains(p + 100)) {
                    continue; // keep clear of the FD_SOCK2 side ports (transport port + 100)
                }
                try (ServerSocket s = new ServerSocket(p, 1, java.net.InetAddress.getLoopbackAddress())) {
                    ports[i] = s.getLocalPort();
                    taken.add(p);
                    break;
                } catch (java.net.BindException busy) {
                    // in use: try another
                }
            }
        }
        return ports;
    }

    public static String peers(int[] ports) {
        StringBuilder b = new StringBuilder();
        for (int p : ports) {
            b.append(b.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
        }
        return b.toString();
    }

    /** Writes a random owner-only secret file in {@code dir}. */
    public static Path secret(Path dir, String name, long seed) throws IOException {
        Path f = dir.resolve(name);
        byte[] s = new byte[32];
        new Random(seed).nextBytes(s);
        Files.write(f, s);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    /** Joins rank {@code rank} of a loopback job in this JVM (blocks until all ranks joined). */
    public static ProcessGroup join(int rank, int[] ports, String job, Path secret, GroupConfig.Builder extra) {
        GroupConfig cfg = extra.peers(peers(ports)).secretFile(secret).build();
        return ProcessGroups.join(RankEnvironment.explicit(rank, ports.length, job), cfg, GroupListener.NONE);
    }
}
