package io.ironloop.runtime.internal.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.runtime.blocks.Balancer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OwnershipTest {

    @Test
    void initial_contiguousRangesOverTheActives_sparesIdle() {
        Ownership o = Ownership.initial(8, 5, 1, Balancer.greedy());
        assertThat(o.actives()).containsExactly(0, 1, 2, 3);
        assertThat(o.spares()).containsExactly(4);
        assertThat(o.blocksOf(0)).containsExactly(0, 1);
        assertThat(o.blocksOf(3)).containsExactly(6, 7);
        assertThat(o.blocksOf(4)).isEmpty();
    }

    @Test
    void afterLoss_spareAdoptsExactlyTheLostRanksBlocks() {
        Ownership o = Ownership.initial(8, 5, 1, Balancer.greedy());
        Ownership.Change c = o.afterLoss(Set.of(2), Balancer.greedy());
        assertThat(c.sparesUsed()).isEqualTo(1);
        assertThat(c.next().blocksOf(4)).containsExactly(4, 5);
        assertThat(c.next().actives()).containsExactly(0, 1, 4, 3);
        assertThat(c.next().spares()).isEmpty();
        for (int r : List.of(0, 1, 3)) {
            assertThat(c.next().blocksOf(r)).isEqualTo(o.blocksOf(r));
        }
    }

    @Test
    void afterLoss_noSpare_greedyMovesOnlyTheLostBlocksToTheLeastLoaded() {
        Ownership o = Ownership.initial(8, 4, 0, Balancer.greedy());
        Ownership next = o.afterLoss(Set.of(1), Balancer.greedy()).next();
        assertThat(next.actives()).containsExactly(0, 2, 3);
        assertThat(next.blocksOf(0)).containsExactly(0, 1, 2);
        assertThat(next.blocksOf(2)).containsExactly(3, 4, 5);
        assertThat(next.blocksOf(3)).containsExactly(6, 7);
    }

    @Test
    void afterLoss_twoLossesOneSpare_spareTakesTheLowestLostRank() {
        Ownership o = Ownership.initial(6, 4, 1, Balancer.greedy());
        Ownership.Change c = o.afterLoss(Set.of(2, 0), Balancer.greedy());
        assertThat(c.sparesUsed()).isEqualTo(1);
        assertThat(c.next().blocksOf(3)).containsExactly(0, 1, 4);
        assertThat(c.next().blocksOf(1)).containsExactly(2, 3, 5);
    }

    @Test
    void afterLoss_everyActiveLost_refused() {
        Ownership o = Ownership.initial(4, 2, 0, Balancer.greedy());
        assertThatThrownBy(() -> o.afterLoss(Set.of(0, 1), Balancer.greedy())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("every computing rank is lost");
    }

    @Test
    void initial_badBalancer_refusedWithTheReason() {
        assertThatThrownBy(() -> Ownership.initial(4, 2, 0, (n, prev, ranks) -> new int[] {0, 1, 2, 0}))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("rank index 2 of 2");
    }
}
