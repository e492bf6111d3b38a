package io.ironloop.group.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void slice_secondOfTwo_portsAndSidePortsStayInTheUpperHalf_aBadSliceIsRefused() throws Exception {
        String before = System.getProperty(FreePorts.SLICE_PROPERTY);
        try {
            System.setProperty(FreePorts.SLICE_PROPERTY, "2/2");
            int half = FreePorts.LOW + (FreePorts.HIGH + FreePorts.SIDE_OFFSET - FreePorts.LOW + 1) / 2;
            for (int p : FreePorts.allocate(16)) {
                assertThat(p).isGreaterThanOrEqualTo(half);
                assertThat(p + FreePorts.SIDE_OFFSET).isLessThanOrEqualTo(FreePorts.HIGH + FreePorts.SIDE_OFFSET);
            }
            System.setProperty(FreePorts.SLICE_PROPERTY, "1/2");
            int base = FreePorts.consecutive(4);
            assertThat(base + 3 + FreePorts.SIDE_OFFSET).as("the first slice's side ports stay below the second slice").isLessThan(half);

            System.setProperty(FreePorts.SLICE_PROPERTY, "3/2");
            assertThatThrownBy(() -> FreePorts.allocate(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(FreePorts.SLICE_PROPERTY + "=3/2").hasMessageContaining("K/N");
        } finally {
            if (before == null) {
                System.clearProperty(FreePorts.SLICE_PROPERTY);
            } else {
                System.setProperty(FreePorts.SLICE_PROPERTY, before);
            }
        }
    }

    @Test
    void loopbackPeers_listsEveryPortInRankOrder() {
        assertThat(FreePorts.loopbackPeers(new int[] {20001, 20500})).isEqualTo("127.0.0.1:20001,127.0.0.1:20500");
    }
}
