package io.ironloop.cli.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks distinct loopback ports that are free now, by binding them all at once to port 0 and releasing
 * them. Another process could take one before the rank binds it; ranks then fail at start-up and the
 * supervisor treats that as any other failure.
 */
final class FreePorts {
    private FreePorts() {
    }

    /**
     * @param count how many ports
     * @return distinct ports, free on loopback at the time of the call
     * @throws IOException if the ports cannot be bound
     */
    static List<Integer> allocate(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }
}
