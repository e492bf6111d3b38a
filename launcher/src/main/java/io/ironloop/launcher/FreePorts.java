package io.ironloop.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks distinct loopback ports for the ranks' group transports that are free now. Each rank also binds
 * its transport port + {@value #SIDE_OFFSET} (JGroups FD_SOCK2, the crash detector), so both must be free
 * and no rank's pair may overlap another's. Ports come from {@value #LOW}..{@value #HIGH}, below Linux's
 * ephemeral range (32768 and up), so that no outgoing connection of any process takes one between this
 * choice and the rank binding it. Another process could still take one; the rank then fails at start-up
 * and the supervisor treats that as any other failure.
 */
final class FreePorts {
    /** Offset of FD_SOCK2's server port from the transport port. */
    static final int SIDE_OFFSET = 100;
    static final int LOW = 20000;
    static final int HIGH = 32767 - SIDE_OFFSET;

    private FreePorts() {
    }

    /**
     * @param count how many ports
     * @return distinct ports, free on loopback (with their side ports) at the time of the call
     * @throws IOException if not enough free ports are found
     */
    static List<Integer> allocate(int count) throws IOException {
        List<Integer> ports = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempts = 0; ports.size() < count; attempts++) {
            if (attempts > 100 * count + 10_000) {
                throw new IOException("found only " + ports.size() + " of " + count + " free port pairs (p, p+" + SIDE_OFFSET + ") in "
                        + LOW + ".." + HIGH);
            }
            int p = random.nextInt(LOW, HIGH + 1);
            if (taken.contains(p) || taken.contains(p + SIDE_OFFSET) || !free(p) || !free(p + SIDE_OFFSET)) {
                continue;
            }
            taken.add(p);
            taken.add(p + SIDE_OFFSET);
            ports.add(p);
        }
        return ports;
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
