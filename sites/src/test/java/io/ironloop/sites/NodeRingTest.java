package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.sites.SiteDetectorTest.Ring;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RADIC's node ring inside a site: the detection rule of {@link SiteDetector} on a ring of node names, on the simulated
 * network and manual clock of {@link SiteDetectorTest}. A node is declared only when both its ring neighbours lost it.
 */
class NodeRingTest {
    /** The survivors drop a declared node from their ring, as the table without it tells them. */
    private static void drop(Ring ring, String node) {
        ring.detectors.remove(node);
        List<String> next = List.copyOf(ring.detectors.keySet());
        ring.detectors.values().forEach(d -> d.ring(next, ring.now));
    }

    @Test
    void deadNode_declaredByItsWatcherOnceItsOtherNeighbourConfirms_once() {
        Ring ring = new Ring(List.of("a", "b", "c", "d"));
        ring.run(3);
        assertThat(ring.log).isEmpty();
        ring.dead.add("b");
        ring.run(0.95);
        assertThat(ring.declared()).isEmpty(); // not before the timeout
        ring.run(3);
        assertThat(ring.log).containsExactly("a: AskToCheck[third=c, target=b]", "a: DeclareFailed[target=b, verifiedBy=c]");

        drop(ring, "b"); // the ring closes over the gap: a watches c now, and nobody else suspects anything
        ring.log.clear();
        ring.run(10);
        assertThat(ring.log).isEmpty();
        assertThat(ring.detectors.get("a").watched()).isEqualTo("c");
        assertThat(ring.detectors.get("c").protector()).isEqualTo("a");
    }

    @Test
    void oneLinkCut_theOtherNeighbourStillReachesTheNode_neverDeclared() {
        Ring ring = new Ring(List.of("a", "b", "c"));
        ring.cut("a", "b");
        ring.run(30);
        assertThat(ring.declared()).isEmpty();
        assertThat(ring.log).isNotEmpty().allMatch(l -> l.startsWith("a: AskToCheck[third=c, target=b]") || l.startsWith("a: LinkCut"));
        assertThat(ring.detectors.values()).noneMatch(d -> d.state() == SiteDetector.State.STOPPED);
    }

    @Test
    void isolatedNode_stopsItself_andItsWatcherDeclaresIt() {
        Ring ring = new Ring(List.of("a", "b", "c", "d"));
        ring.run(2);
        ring.isolate("c");
        ring.run(3);
        assertThat(ring.log).contains("b: DeclareFailed[target=c, verifiedBy=d]");
        assertThat(ring.log).anyMatch(l -> l.startsWith("c: StopSelf") && l.contains("node c lost both neighbours"));
        assertThat(ring.declared()).hasSize(1);
    }

    @Test
    void ringOfTwoNodes_noThirdParty_declaredUnverified_nobodyStops() {
        Ring ring = new Ring(List.of("a", "b"));
        ring.dead.add("b");
        ring.run(3);
        assertThat(ring.log).containsExactly("a: DeclareFailed[target=b, verifiedBy=]");
        assertThat(ring.detectors.get("a").state()).isEqualTo(SiteDetector.State.DECLARED);
    }

    @Test
    void lastNodeLeft_watchesNobody_neverActs() {
        Ring ring = new Ring(List.of("a", "b"));
        drop(ring, "b");
        ring.run(10);
        assertThat(ring.log).isEmpty();
        assertThat(ring.detectors.get("a").watched()).isEqualTo("a");
    }

    @Test
    void ring_withoutSelfOrWithADuplicate_refused() {
        SiteDetector d = new SiteDetector("a", List.of("a", "b"), Duration.ofSeconds(1), 0);
        assertThatThrownBy(() -> d.ring(List.of("b", "c"), 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a");
        assertThatThrownBy(() -> d.ring(List.of("a", "b", "b"), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(d.topology()).isNull();
    }
}
