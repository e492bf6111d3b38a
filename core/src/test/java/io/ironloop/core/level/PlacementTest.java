package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementTest {

    @Test
    void pairwise_unknownHosts_sendsToTheOpposingRank() {
        List<String> hosts = Collections.nCopies(4, "");
        Placement p = Placement.pairwise();
        assertThat(p.partnersOf(0, hosts)).containsExactly(2);
        assertThat(p.partnersOf(1, hosts)).containsExactly(3);
        assertThat(p.partnersOf(2, hosts)).containsExactly(0);
        assertThat(p.sourcesOf(3, hosts)).containsExactly(1);
        assertThat(p.partnersOf(0, List.of(""))).isEmpty();
        assertThat(p.partnersOf(2, Collections.nCopies(3, ""))).containsExactly(0);
    }

    @Test
    void pairwise_knownHosts_neverPicksAPartnerOnTheSameHost() {
        // six ranks, three per host, interleaved oddly: the plain rule would pair ranks on one host
        List<String> hosts = List.of("a", "a", "b", "a", "b", "b");
        Placement p = Placement.pairwise();
        for (int r = 0; r < hosts.size(); r++) {
            for (int partner : p.partnersOf(r, hosts)) {
                assertThat(hosts.get(partner)).as("partner of rank %d", r).isNotEqualTo(hosts.get(r));
            }
        }
        int received = 0;
        for (int r = 0; r < hosts.size(); r++) {
            received += p.sourcesOf(r, hosts).length;
        }
        assertThat(received).isEqualTo(hosts.size());
    }

    @Test
    void pairwise_oneHostForAll_fallsBackToThePlainRule() {
        assertThat(Placement.pairwise().partnersOf(1, List.of("h", "h", "h", "h"))).containsExactly(3);
    }
}
