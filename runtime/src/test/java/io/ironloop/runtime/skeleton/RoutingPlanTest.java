package io.ironloop.runtime.skeleton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RoutingPlanTest {
    private static final Box DOMAIN = Box.ofExtents(10, 4);

    @Test
    void slabs_borderExchangeMovesOneRowEachWay() {
        RoutingPlan plan = RoutingPlan.between(DOMAIN, Partition.slabs(DOMAIN, 0, 1), 3, 0, 1);
        // parts possess rows [0,3), [3,6), [6,10)
        assertThat(plan.region(0, 1)).isEqualTo(Box.of(new int[] {2, 0}, new int[] {3, 4}));
        assertThat(plan.region(1, 0)).isEqualTo(Box.of(new int[] {3, 0}, new int[] {4, 4}));
        assertThat(plan.region(1, 2)).isEqualTo(Box.of(new int[] {5, 0}, new int[] {6, 4}));
        assertThat(plan.region(0, 2)).isNull();
        assertThat(plan.region(1, 1)).as("what part 1 keeps").isEqualTo(Box.of(new int[] {3, 0}, new int[] {6, 4}));
        assertThat(plan.transfers()).isEqualTo(4);
    }

    @Test
    void between_sameBoxesAsThePreviousPlan_reusesIt_changedBoxesMakeANewOneAndAreChecked() {
        Partition slabs = Partition.slabs(DOMAIN, 0, 1);
        RoutingPlan first = RoutingPlan.between(DOMAIN, slabs, 3, 0, 1, null);
        assertThat(RoutingPlan.between(DOMAIN, slabs, 3, 1, 2, first)).as("same boxes at steps 1 and 2").isSameAs(first);

        Partition moving = new Partition() { // part 0 grows by a row at step 5, and at step 6 possesses what part 1 does
            @Override
            public Box possessed(int part, int parts, long step) {
                int cut = step < 5 ? 5 : step == 5 ? 6 : 10;
                return part == 0 ? Box.of(new int[] {0, 0}, new int[] {cut, 4}) : Box.of(new int[] {step < 6 ? cut : 5, 0}, new int[] {10, 4});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step);
            }
        };
        RoutingPlan before = RoutingPlan.between(DOMAIN, moving, 2, 3, 4, null);
        RoutingPlan changed = RoutingPlan.between(DOMAIN, moving, 2, 4, 5, before);
        assertThat(changed).isNotSameAs(before);
        assertThat(changed.region(1, 0)).as("row 5 moves to part 0").isEqualTo(Box.of(new int[] {5, 0}, new int[] {6, 4}));
        assertThatThrownBy(() -> RoutingPlan.between(DOMAIN, moving, 2, 5, 6, changed)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parts 0 and 1 both possess");
    }

    @Test
    void overlappingParts_refusedNamingThePartsAndTheOverlap() {
        Partition overlapping = new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                return Box.of(new int[] {part == 0 ? 0 : 4, 0}, new int[] {part == 0 ? 5 : 10, 4});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step);
            }
        };
        assertThatThrownBy(() -> RoutingPlan.between(DOMAIN, overlapping, 2, 7, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at step 7").hasMessageContaining("parts 0 and 1 both possess [4,5)x[0,4)");
    }

    @Test
    void aGap_refusedNamingAnElementNobodyPossesses() {
        Partition gap = new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                return Box.of(new int[] {part == 0 ? 0 : 6, 0}, new int[] {part == 0 ? 5 : 10, 4});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step);
            }
        };
        assertThatThrownBy(() -> RoutingPlan.between(DOMAIN, gap, 2, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("possess 36 of the domain's 40 elements").hasMessageContaining("element [5,6)x[0,1) belongs to no part");
    }

    @Test
    void neededOutsideTheDomain_refused() {
        Partition outside = new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                return DOMAIN;
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return Box.ofExtents(11, 4);
            }
        };
        assertThatThrownBy(() -> RoutingPlan.between(DOMAIN, outside, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("part 0 needs [0,11)x[0,4)");
    }
}
