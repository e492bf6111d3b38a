package io.ironloop.group.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks distinct loopback ports for the group transports of a job's ranks on this machine, free now: the one
 * rule that the launcher, the benchmarks' and the tests' local jobs share. Each rank also binds its transport
 * port + {@value #SIDE_OFFSET} (JGroups FD_SOCK2, the crash detector), so both must be free and no rank's pair
 * may overlap another's. Ports come from {@value #LOW}..{@value #HIGH}, below Linux's ephemeral range (32768
 * and up), so that no outgoing connection of any process takes one between this choice and the rank binding
 * it. Another process could still take one; the rank then fails at start-up (the launcher treats that as any
 * other failure). Thread-safe.
 */
public final class FreePorts {
    /** Offset of FD_SOCK2's server port from the transport port. */
    public static final int SIDE_OFFSET = 100;
    /** The lowest port handed out. */
    public static final int LOW = 20000;
    /** The highest port handed out (its side port stays below the ephemeral range). */
    public static final int HIGH = 32767 - SIDE_OFFSET;

    private FreePorts() {
    }

    /**
     * Distinct ports, free on loopback with their side ports at the time of the call.
     *
     * @param count how many ports
     * @return the ports, in rank order
     * @throws IOException if not enough free ports are found
     */
    public static int[] allocate(int count) throws IOException {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        int[] ports = new int[count];
        Set<Integer> taken = new HashSet<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int found = 0;
        for (int attempts = 0; found < count; attempts++) {
            if (attempts > 100 * count + 10_000) {
                throw new IOException("found only " + found + " of " + count + " free port pairs (p, p+" + SIDE_OFFSET + ") in "
                        + LOW + ".." + HIGH);
            }
            int p = random.nextInt(LOW, HIGH + 1);
            if (taken.contains(p) || taken.contains(p + SIDE_OFFSET) || !free(p) || !free(p + SIDE_OFFSET)) {
                continue;
            }
            taken.add(p);
            taken.add(p + SIDE_OFFSET);
            ports[found++] = p;
        }
        return ports;
    }

    /**
     * The first of {@code count} consecutive ports, free on loopback with their side ports at the time of the call:
     * for ranks that bind a base port plus their rank ({@code GROUP_BIND_PORT}, as under {@code srun}).
     *
     * @throws IOException if no such run of ports is found
     */
    public static int consecutive(int count) throws IOException {
        if (count < 1 || count > SIDE_OFFSET) {
            throw new IllegalArgumentException("count must be 1.." + SIDE_OFFSET + ", was " + count);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempts = 0; attempts < 10_000; attempts++) {
            int base = random.nextInt(LOW, HIGH - count + 2);
            boolean all = true;
            for (int i = 0; i < count && all; i++) {
                all = free(base + i) && free(base + i + SIDE_OFFSET);
            }
            if (all) {
                return base;
            }
        }
        throw new IOException("found no " + count + " consecutive free port pairs (p, p+" + SIDE_OFFSET + ") in " + LOW + ".." + HIGH);
    }

    /**
     * The {@link LaunchEnvironment#PEERS} value of a job on this machine: {@code 127.0.0.1:port} of every rank,
     * comma-separated, in rank order.
     */
    public static String loopbackPeers(int[] ports) {
        StringJoiner peers = new StringJoiner(",");
        for (int p : ports) {
            peers.add("127.0.0.1:" + p);
        }
        return peers.toString();
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
