package io.ironloop.runtime.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BlockLayout#allToAll}: the one layout of skeleton parts and of examples whose blocks all talk to each other. */
class AllToAllLayoutTest {

    @ParameterizedTest(name = "{0} parts")
    @ValueSource(ints = {1, 2, 5})
    void allToAll_everyBlockNeighboursEveryOtherOnce_andTheOppositeDirectionLeadsBack(int parts) {
        BlockLayout layout = BlockLayout.allToAll(parts);

        assertThat(layout.blockCount()).isEqualTo(parts);
        for (int b = 0; b < parts; b++) {
            List<Integer> neighbours = new ArrayList<>();
            for (int d = 0; d < layout.directions(); d++) {
                int n = layout.neighbour(b, d);
                if (n >= 0) {
                    neighbours.add(n);
                    assertThat(layout.neighbour(n, layout.opposite(d))).as("back from %d in direction %d", n, layout.opposite(d)).isEqualTo(b);
                }
            }
            List<Integer> others = new ArrayList<>();
            for (int o = 0; o < parts; o++) {
                if (o != b) {
                    others.add(o);
                }
            }
            assertThat(neighbours).as("block %d", b).containsExactlyInAnyOrderElementsOf(others);
        }
    }

    @ParameterizedTest(name = "{0} parts")
    @ValueSource(ints = {0, -3})
    void allToAll_noParts_isRefused(int parts) {
        assertThatThrownBy(() -> BlockLayout.allToAll(parts)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(
                "at least one block");
    }
}
