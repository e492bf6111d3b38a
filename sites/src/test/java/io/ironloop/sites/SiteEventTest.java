package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one-line form of the protectors' events, which a supervisor reads back from a protector process. */
class SiteEventTest {
    private static final Topology TABLE = Topology.of(List.of(new Topology.RankPlace(0, "a", "X"), new Topology.RankPlace(1, "b", "Y"),
            new Topology.RankPlace(2, "c", "Z")), List.of(Topology.Site.spare("S", List.of("d"), "")));

    @Test
    void line_declared_readsBackTypeAndFields() {
        SiteEvent e = new SiteEvent.Declared("X", "Y", "Z");
        assertThat(e.line()).isEqualTo("Declared site=X target=Y verified_by=Z");
        assertThat(SiteEvent.parse(e.line())).isEqualTo(Map.entry("Declared", Map.of("site", "X", "target", "Y", "verified_by", "Z")));
    }

    @Test
    void line_recovered_flattensTheMove() {
        Topology.Move move = TABLE.replace("Y");
        SiteEvent e = new SiteEvent.Recovered("X", move, List.of("rank-00001"), 3, 20, Duration.ofMillis(42));
        Map<String, String> f = SiteEvent.parse(e.line()).getValue();
        assertThat(f).containsEntry("failed", "Y").containsEntry("target", "S").containsEntry("kind", "SPARE_SITE")
                .containsEntry("ranks", "1").containsEntry("series", "rank-00001").containsEntry("lines", "3")
                .containsEntry("newest_iteration", "20").containsEntry("took_ms", "42").containsEntry("table_version", "2");
        assertThat(SiteEvent.parse(new SiteEvent.TableChanged("Z", move.after()).line()).getValue())
                .containsEntry("table_version", "2").containsEntry("ranks", "0@X,1@S,2@Z");
    }

    @Test
    void line_nodeLevel_readsBackTypeAndFields() {
        assertThat(SiteEvent.parse(new SiteEvent.FailedOver("X", "x2", "x1", "127.0.0.1:4242", 2).line())).isEqualTo(Map.entry("FailedOver",
                Map.of("site", "X", "node", "x2", "failed", "x1", "address", "127.0.0.1:4242", "table_version", "2")));
        assertThat(SiteEvent.parse(new SiteEvent.NodeDeclared("X", "x2", "x1", "").line()).getValue()).containsEntry("verified_by", "-")
                .containsEntry("target", "x1");
        assertThat(SiteEvent.parse(new SiteEvent.NodeStopped("X", "x3", "node x3 lost both neighbours").line()).getValue())
                .containsEntry("node", "x3").containsEntry("reason", "node x3 lost both neighbours");
    }

    @Test
    void line_reasonWithSpaces_isReadToTheEnd() {
        SiteEvent e = new SiteEvent.Stopped("Y", "site Y lost both neighbours: no heartbeat for 2000 ms");
        assertThat(SiteEvent.parse(e.line()).getValue()).containsEntry("reason", "site Y lost both neighbours: no heartbeat for 2000 ms");
        assertThatThrownBy(() -> SiteEvent.parse("site=X")).isInstanceOf(IllegalArgumentException.class);
    }
}
