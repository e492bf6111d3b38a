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
 * other failure). Processes that choose ports at the same time (parallel test JVMs, several launchers on one
 * machine) can each be given a slice of the range of their own with the system property {@value #SLICE_PROPERTY}
 * = {@code K/N}: the K-th of N equal slices (the build's parallel test JVMs set it). Thread-safe.
 */
public final class FreePorts {
    /** Offset of FD_SOCK2's server port from the transport port. */
    public static final int SIDE_OFFSET = 100;
    /** The lowest port handed out. */
    public static final int LOW = 20000;
    /** The highest port handed out (its side port stays below the ephemeral range). */
    public static final int HIGH = 32767 - SIDE_OFFSET;
    /** The system property that confines this process to a slice of the range: {@code K/N}, 1 ≤ K ≤ N. */
    public static final String SLICE_PROPERTY = "ironloop.freePorts.slice";

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
        int[] range = range();
        int found = 0;
        for (int attempts = 0; found < count; attempts++) {
            if (attempts > 100 * count + 10_000) {
                throw new IOException("found only " + found + " of " + count + " free port pairs (p, p+" + SIDE_OFFSET + ") in "
                        + range[0] + ".." + range[1]);
            }
            int p = random.nextInt(range[0], range[1] + 1);
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
        int[] range = range();
        for (int attempts = 0; attempts < 10_000; attempts++) {
            int base = random.nextInt(range[0], range[1] - count + 2);
            boolean all = true;
            for (int i = 0; i < count && all; i++) {
                all = free(base + i) && free(base + i + SIDE_OFFSET);
            }
            if (all) {
                return base;
            }
        }
        throw new IOException("found no " + count + " consecutive free port pairs (p, p+" + SIDE_OFFSET + ") in " + range[0] + ".." + range[1]);
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

    /**
     * The ports this process hands out, {lowest, highest}: {@value #LOW}..{@value #HIGH}, or its slice when
     * {@value #SLICE_PROPERTY} says one.
     *
     * @throws IllegalStateException if the property is set but is not {@code K/N} with 1 ≤ K ≤ N ≤ 64
     */
    static int[] range() {
        String slice = System.getProperty(SLICE_PROPERTY, "").strip();
        if (slice.isEmpty()) {
            return new int[] {LOW, HIGH};
        }
        String[] kn = slice.split("/");
        try {
            int k = Integer.parseInt(kn[0].strip());
            int n = Integer.parseInt(kn[1].strip());
            if (kn.length != 2 || n < 1 || n > 64 || k < 1 || k > n) {
                throw new NumberFormatException();
            }
            // slices of every port a rank binds, side ports included, so that no process's side port is in another's slice
            int width = (HIGH + SIDE_OFFSET - LOW + 1) / n;
            int low = LOW + (k - 1) * width;
            int high = k == n ? HIGH + SIDE_OFFSET : low + width - 1;
            return new int[] {low, high - SIDE_OFFSET};
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalStateException("system property " + SLICE_PROPERTY + "=" + slice + " is not K/N with 1 <= K <= N <= 64,"
                    + " e.g. 2/4 for the second of four slices of ports " + LOW + ".." + (HIGH + SIDE_OFFSET));
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
