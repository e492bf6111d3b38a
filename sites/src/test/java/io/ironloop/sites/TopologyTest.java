package io.ironloop.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TopologyTest {
    /** The paper's Table 1: X (A,B,C), Y (D,E,F), Z (G,H,I), one spare site (J,K,L); one rank per node. */
    static Topology table1() {
        List<RankPlace> places = new ArrayList<>();
        String[][] sites = {{"X", "A", "B", "C"}, {"Y", "D", "E", "F"}, {"Z", "G", "H", "I"}};
        int rank = 0;
        for (String[] s : sites) {
            for (int n = 1; n < s.length; n++) {
                places.add(new RankPlace(rank++, s[n], s[0]));
            }
        }
        return Topology.of(places, List.of(Site.spare("spare", List.of("J", "K", "L"), "")));
    }

    @Test
    void of_table1_ringOrderControllersAndProtectorsAsThePaper() {
        Topology t = table1();
        assertThat(t.ring()).extracting(Site::name).containsExactly("X", "Y", "Z");
        assertThat(t.spares()).extracting(Site::name).containsExactly("spare");
        assertThat(t.site("X").controller()).isEqualTo("A");
        assertThat(t.site("Y").ranks()).containsExactly(3, 4, 5);
        // Table 1: X is protected by Z, Y by X, Z by Y
        assertThat(t.protectorOf("X").name()).isEqualTo("Z");
        assertThat(t.protectorOf("Y").name()).isEqualTo("X");
        assertThat(t.protectorOf("Z").name()).isEqualTo("Y");
        assertThat(t.protectedBy("X").name()).isEqualTo("Y");
        assertThat(t.siteOf(7)).isEqualTo("Z");
        assertThat(t.table()).contains("spare").contains("D,E,F");
    }

    @Test
    void replace_withSpare_spareTakesTheRowThenProtectorSiteThenExposed() {
        Topology t = table1();
        Topology.Move first = t.replace("Y");
        assertThat(first.kind()).isEqualTo(Topology.Kind.SPARE_SITE);
        assertThat(first.target()).isEqualTo("spare");
        assertThat(first.after().ring()).extracting(Site::name).containsExactly("X", "spare", "Z");
        assertThat(first.after().site("spare").ranks()).containsExactly(3, 4, 5);
        assertThat(first.after().protectorOf("spare").name()).isEqualTo("X");
        assertThat(first.after().version()).isEqualTo(2);
        assertThat(first.after().has("Y")).isFalse();

        Topology.Move second = first.after().replace("Z"); // no spare left: Z's protector takes its ranks (Fig. 4)
        assertThat(second.kind()).isEqualTo(Topology.Kind.PROTECTOR_SITE);
        assertThat(second.target()).isEqualTo("spare");
        assertThat(second.after().site("spare").ranks()).containsExactly(3, 4, 5, 6, 7, 8);
        assertThat(second.after().ring()).extracting(Site::name).containsExactly("X", "spare");

        Topology.Move third = second.after().replace("X"); // everything in one site (Fig. 5)
        assertThat(third.kind()).isEqualTo(Topology.Kind.EXPOSED);
        assertThat(third.after().ring()).hasSize(1);
        assertThat(third.after().siteOf(0)).isEqualTo("spare");
        assertThatThrownBy(() -> third.after().replace("spare")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("last site");
    }

    @Test
    void withoutSpare_theNextMoveGoesToTheProtectorSite_aRankingSiteCannotLeaveThisWay() {
        Topology t = table1().withoutSpare("spare");
        assertThat(t.version()).isEqualTo(table1().version() + 1);
        assertThat(t.spares()).isEmpty();
        Topology.Move move = t.replace("Y");
        assertThat(move.kind()).isEqualTo(Topology.Kind.PROTECTOR_SITE);
        assertThat(move.target()).isEqualTo("X");
        assertThatThrownBy(() -> table1().withoutSpare("Y")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Y");
    }

    @Test
    void encode_parse_roundTripWithProtectors() {
        Topology t = table1().withProtectors(java.util.Map.of("X", "10.0.0.1:7000", "spare", "10.0.0.4:7000"));
        assertThat(Topology.parse(t.encode())).isEqualTo(t);
        assertThat(Topology.parse(t.replace("Z").after().encode())).isEqualTo(t.replace("Z").after());
    }

    @Test
    void failover_controllerLost_nextNodeRunsTheProtector_nodeAddressesFollow_roundTrip() {
        Topology t = table1().withProtectors(java.util.Map.of("Y", "10.0.0.2:7000"))
                .withNodeProtectors(java.util.Map.of("D", "10.0.0.2:7101", "E", "10.0.0.3:7101", "F", "10.0.0.4:7101"));
        assertThat(t.nodeProtectors("Y")).containsExactly(java.util.Map.entry("D", "10.0.0.2:7101"), java.util.Map.entry("E", "10.0.0.3:7101"),
                java.util.Map.entry("F", "10.0.0.4:7101"));
        assertThat(t.nodeProtectors("X")).isEmpty();
        assertThat(Topology.parse(t.encode())).isEqualTo(t);

        Topology after = t.failover("Y", "E", "10.0.0.3:7000");
        assertThat(after.version()).isEqualTo(t.version() + 1);
        assertThat(after.site("Y").controller()).isEqualTo("E");
        assertThat(after.site("Y").protector()).isEqualTo("10.0.0.3:7000");
        assertThat(after.site("Y").nodes()).containsExactly("E", "F");
        assertThat(after.site("Y").ranks()).isEqualTo(t.site("Y").ranks());
        assertThat(after.nodeProtectors("Y")).containsOnlyKeys("E", "F");
        assertThat(after.ring()).extracting(Site::name).containsExactly("X", "Y", "Z");
        assertThat(Topology.parse(after.encode())).isEqualTo(after);
        // the node addresses survive a site's recovery too
        assertThat(after.replace("Z").after().nodeProtectors("Y")).containsOnlyKeys("E", "F");

        Topology lessF = after.nodeLost("Y", "F");
        assertThat(lessF.site("Y").nodes()).containsExactly("E");
        assertThat(lessF.site("Y").controller()).isEqualTo("E");
        assertThatThrownBy(() -> lessF.nodeLost("Y", "E")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("controller");
        assertThatThrownBy(() -> t.failover("Y", "D", "x:1")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another node");
        assertThatThrownBy(() -> t.nodeLost("Y", "A")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a node");
    }

    @Test
    void siteOf_environmentOrDefault() {
        io.ironloop.config.ParameterTable keys = io.ironloop.config.ParameterTable.of(io.ironloop.group.GroupKeys.ALL);
        assertThat(Topology.siteOf(io.ironloop.config.Parameters.load(keys, null, java.util.Map.of("IRONLOOP_SITE", "eu-west"),
                java.util.Map.of()))).isEqualTo("eu-west");
        assertThat(Topology.siteOf(io.ironloop.config.Parameters.defaults(keys))).isEqualTo(Topology.DEFAULT_SITE);
    }

    @Test
    void of_nodeInTwoSites_refusedWithBothNames() {
        assertThatThrownBy(() -> Topology.of(List.of(new RankPlace(0, "n1", "X"), new RankPlace(1, "n1", "Y")), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n1").hasMessageContaining("X").hasMessageContaining("Y");
    }

    @Test
    void agree_everyRankOfAnInJvmGroup_sameTable() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.open("topology", 4)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Topology>> tables = new ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    ProcessGroup g = cluster.group(r);
                    int rank = r;
                    tables.add(pool.submit(() -> Topology.agree(g, "node-" + rank, rank < 2 ? "east" : "west", List.of())));
                }
                Topology first = tables.get(0).get();
                for (Future<Topology> f : tables) {
                    assertThat(f.get()).isEqualTo(first);
                }
                assertThat(first.ring()).extracting(Site::name).containsExactly("east", "west");
                assertThat(first.site("west").nodes()).containsExactly("node-2", "node-3");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A controller failover of X and the recovery of Y made at the same time from table v1 are both v2; merged in
     * either order they give one table v3 with both: X's protector on B, Y's ranks on the spare.
     */
    @Test
    void merge_failoverAndRecoveryFromTheSameTable_bothOrdersGiveOneTableWithBoth() {
        Topology v1 = table1();
        Topology failover = v1.failover("X", "B", "10.0.0.2:7700");
        Topology recovery = v1.replace("Y").after();
        assertThat(failover.version()).isEqualTo(recovery.version()).isEqualTo(2);

        Topology merged = failover.merge(recovery);
        assertThat(recovery.merge(failover)).isEqualTo(merged);
        assertThat(merged.version()).isEqualTo(3);
        assertThat(merged.site("X").controller()).isEqualTo("B");
        assertThat(merged.site("X").protector()).isEqualTo("10.0.0.2:7700");
        assertThat(merged.ring()).extracting(Site::name).containsExactly("X", "spare", "Z");
        assertThat(merged.site("spare").ranks()).containsExactly(3, 4, 5);
        assertThat(Topology.parse(merged.encode())).isEqualTo(merged); // the change travels with the table
        assertThat(merged.digest()).isNotEqualTo(failover.digest());
        // what was merged already is not merged again, and an older table changes nothing
        assertThat(merged.merge(recovery)).isSameAs(merged);
        assertThat(failover.merge(failover)).isSameAs(failover);
        // two tables at start (a protector given its own view of the addresses) are each kept
        Topology view = v1.withProtectors(java.util.Map.of("X", "127.0.0.1:9"));
        assertThat(v1.merge(view)).isSameAs(v1);
        assertThat(view.merge(v1)).isSameAs(view);
    }

    /**
     * Two recoveries that both put their site's checkpoint on the one spare: merged, the spare runs the ranks of both
     * (it holds both checkpoints), in either order.
     */
    @Test
    void merge_twoRecoveriesOntoTheSameSpare_theSpareRunsBoth() {
        Topology v1 = table1();
        Topology lostY = v1.replace("Y").after();
        Topology lostZ = v1.replace("Z").after();
        Topology merged = lostY.merge(lostZ);
        assertThat(lostZ.merge(lostY)).isEqualTo(merged);
        assertThat(merged.ring()).extracting(Site::name).containsExactly("X", "spare");
        assertThat(merged.site("spare").ranks()).containsExactly(3, 4, 5, 6, 7, 8);
    }

    /** Two nodes that both took over X's lost controller cannot both stand: the same one wins in either order, alone. */
    @Test
    void merge_twoFailoversOfOneController_theSameOneWinsInEitherOrder() {
        Topology v1 = table1();
        Topology toB = v1.failover("X", "B", "10.0.0.2:7700");
        Topology toC = v1.failover("X", "C", "10.0.0.3:7700");
        Topology merged = toB.merge(toC);
        assertThat(toC.merge(toB)).isEqualTo(merged).isEqualTo(toB); // "failover X A B" orders before "failover X A C"
        assertThat(merged.site("X").nodes()).containsExactly("B", "C");
    }

    /**
     * A site of two nodes whose internal link is cut: the controller A declares B lost while B takes A's place. Merged
     * in either order, B's failover stands (the controller's nodeLost of B cannot be made on it): B runs the protector.
     */
    @Test
    void merge_twoNodesDeclaringEachOther_theFailoverStandsInEitherOrder() {
        Topology v1 = Topology.of(List.of(new RankPlace(0, "A", "X"), new RankPlace(1, "B", "X"), new RankPlace(2, "C", "Y")), List.of());
        Topology withoutB = v1.nodeLost("X", "B");
        Topology toB = v1.failover("X", "B", "10.0.0.2:7700");
        assertThat(withoutB.merge(toB)).isEqualTo(toB.merge(withoutB)).isEqualTo(toB);
    }
}
