package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.sites.SiteDetector.Action;
import io.ironloop.sites.Topology.RankPlace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 2 on a simulated network: one detector per site, heartbeats and the third party's check delivered only
 * over the links the test leaves up, on a clock the test advances. Deterministic and fast.
 */
class SiteDetectorTest {
    private static final Duration TIMEOUT = Duration.ofMillis(1000);
    private static final long STEP = 100_000_000L; // 100 ms between heartbeats

    /** The detectors of a ring and the links between them; records every action. */
    static final class Ring {
        final Map<String, SiteDetector> detectors = new LinkedHashMap<>();
        final Set<String> cut = new HashSet<>();
        final Set<String> dead = new HashSet<>();
        final List<String> log = new ArrayList<>();
        long now;

        /** A ring of node names ({@link NodeProtector}'s level), in ring order: each watches the next. */
        Ring(List<String> nodes) {
            for (String n : nodes) {
                detectors.put(n, new SiteDetector(n, nodes, TIMEOUT, 0));
            }
        }

        Ring(String... sites) {
            List<RankPlace> places = new ArrayList<>();
            for (int i = 0; i < sites.length; i++) {
                places.add(new RankPlace(i, "node-" + sites[i], sites[i]));
            }
            Topology t = Topology.of(places, List.of());
            for (String s : sites) {
                detectors.put(s, new SiteDetector(s, t, TIMEOUT, 0));
            }
        }

        boolean reaches(String a, String b) {
            return !dead.contains(a) && !dead.contains(b) && !cut.contains(a + "-" + b) && !cut.contains(b + "-" + a);
        }

        void cut(String a, String b) {
            cut.add(a + "-" + b);
        }

        void isolate(String site) {
            detectors.keySet().forEach(o -> cut(site, o));
        }

        /** Runs {@code seconds} of heartbeats and detection. */
        void run(double seconds) {
            long end = now + (long) (seconds * 1e9);
            while (now < end) {
                now += STEP;
                for (SiteDetector d : detectors.values()) {
                    if (dead.contains(d.self()) || d.state() == SiteDetector.State.STOPPED) {
                        continue;
                    }
                    String to = d.protector();
                    if (reaches(d.self(), to) && detectors.get(to).state() != SiteDetector.State.STOPPED) {
                        detectors.get(to).heartbeatFrom(d.self(), now);
                        d.heartbeatAcked(now);
                    }
                }
                for (SiteDetector d : detectors.values()) {
                    if (!dead.contains(d.self())) {
                        d.tick(now).forEach(a -> act(d, a));
                    }
                }
            }
        }

        void act(SiteDetector d, Action a) {
            log.add(d.self() + ": " + a);
            if (a instanceof Action.AskToCheck ask) {
                // the question travels to the third party and its answer back; an unreachable third party answers "no"
                boolean reached = reaches(d.self(), ask.third()) && reaches(ask.third(), ask.target());
                d.verified(ask.target(), ask.third(), reached, now).forEach(b -> act(d, b));
            }
        }

        List<String> declared() {
            return log.stream().filter(l -> l.contains("DeclareFailed")).toList();
        }
    }

    @Test
    void deadSite_declaredByItsProtectorAfterTheThirdConfirms_once() {
        Ring ring = new Ring("X", "Y", "Z");
        ring.run(3);
        assertThat(ring.log).isEmpty();
        ring.dead.add("Y");
        ring.run(0.95);
        assertThat(ring.declared()).isEmpty(); // not before the timeout
        ring.run(2);
        assertThat(ring.log).containsExactly("X: AskToCheck[third=Z, target=Y]", "X: DeclareFailed[target=Y, verifiedBy=Z]");
        assertThat(ring.detectors.get("X").state()).isEqualTo(SiteDetector.State.DECLARED);
        assertThat(ring.detectors.get("Z").state()).isEqualTo(SiteDetector.State.WATCHING);
    }

    @Test
    void oneLinkCut_thirdStillReachesIt_neverDeclared() {
        Ring ring = new Ring("X", "Y", "Z");
        ring.cut("X", "Y");
        ring.run(30);
        assertThat(ring.declared()).isEmpty();
        assertThat(ring.log).isNotEmpty().allMatch(l -> l.startsWith("X: AskToCheck[third=Z, target=Y]") || l.startsWith("X: LinkCut"));
        assertThat(ring.detectors.values()).noneMatch(d -> d.state() == SiteDetector.State.STOPPED);
    }

    @Test
    void isolatedSite_stopsItself_andItsProtectorDeclaresIt() {
        Ring ring = new Ring("W", "X", "Y", "Z");
        ring.run(2);
        ring.isolate("X");
        ring.run(3);
        assertThat(ring.log).contains("W: DeclareFailed[target=X, verifiedBy=Y]");
        assertThat(ring.log).anyMatch(l -> l.startsWith("X: StopSelf") && l.contains("lost both neighbours"));
        assertThat(ring.declared()).hasSize(1);
    }

    @Test
    void afterRecovery_newTable_spareWatchedAndHeardAgain() {
        Ring ring = new Ring("X", "Y", "Z");
        ring.dead.add("Y");
        ring.run(3);
        Topology after = ring.detectors.get("X").topology().replace("Y").after(); // no spare: X takes Y's ranks
        ring.detectors.remove("Y");
        ring.detectors.values().forEach(d -> d.topology(after, ring.now));
        ring.log.clear();
        ring.run(5);
        assertThat(ring.log).isEmpty();
        assertThat(ring.detectors.get("X").watched()).isEqualTo("Z");
    }

    @Test
    void ringOfTwo_noThirdParty_declaredUnverified() {
        Ring ring = new Ring("X", "Y");
        ring.dead.add("Y");
        ring.run(2);
        assertThat(ring.log).containsExactly("X: DeclareFailed[target=Y, verifiedBy=]");
    }

    @Test
    void protectorThatDidNotRunForTimeouts_blamesNobodyOnResuming_thenWatchesAfresh() {
        Topology t = Topology.of(List.of(new RankPlace(0, "a", "X"), new RankPlace(1, "b", "Y"), new RankPlace(2, "c", "Z")), List.of());
        SiteDetector x = new SiteDetector("X", t, TIMEOUT, 0);
        x.heartbeatFrom("Y", STEP);
        x.heartbeatAcked(STEP);
        assertThat(x.tick(STEP)).isEmpty();
        long resumed = STEP + 3 * TIMEOUT.toNanos(); // X's process was stopped (SIGSTOP) for three timeouts
        assertThat(x.tick(resumed)).as("the silence it slept through is its own").isEmpty();
        List<Action> after = new ArrayList<>();
        for (long now = resumed + STEP; now <= resumed + TIMEOUT.toNanos() + STEP; now += STEP) {
            after.addAll(x.tick(now));
        }
        // neither neighbour heard for a whole timeout after it resumed: now it is the one cut off
        assertThat(after).singleElement().isInstanceOf(Action.StopSelf.class);
    }
}
