package io.ironloop.group.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void allocate_sixteen_distinctBelowEphemeralRangeAndClearOfEachOthersSidePorts() throws Exception {
        int[] ports = FreePorts.allocate(16);

        assertThat(ports).hasSize(16).doesNotHaveDuplicates();
        assertThat(Arrays.stream(ports)).allSatisfy(p -> assertThat(p).isBetween(FreePorts.LOW, FreePorts.HIGH));
        Set<Integer> bound = new HashSet<>();
        for (int p : ports) {
            assertThat(bound.add(p)).as("port %d is another rank's port or side port", p).isTrue();
            assertThat(bound.add(p + FreePorts.SIDE_OFFSET)).as("side port of %d is taken", p).isTrue();
        }
    }

    @Test
    void consecutive_four_bindableTogetherWithTheirSidePorts() throws Exception {
        int base = FreePorts.consecutive(4);

        assertThat(base).isBetween(FreePorts.LOW, FreePorts.HIGH - 3);
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) { // binding every one proves they were free (and distinct)
                held.add(new ServerSocket(base + i, 1, InetAddress.getLoopbackAddress()));
                held.add(new ServerSocket(base + i + FreePorts.SIDE_OFFSET, 1, InetAddress.getLoopbackAddress()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        assertThat(held).hasSize(8);
    }

    @Test
    void loopbackPeers_listsEveryPortInRankOrder() {
        assertThat(FreePorts.loopbackPeers(new int[] {20001, 20500})).isEqualTo("127.0.0.1:20001,127.0.0.1:20500");
    }
}
