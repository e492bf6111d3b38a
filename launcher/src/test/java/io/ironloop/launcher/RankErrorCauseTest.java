package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which of several ranks' errors is the attempt's cause: the one earliest in the loop, not the first to arrive. */
class RankErrorCauseTest {
    private static RankError at(int rank, long iteration) {
        return new RankError(rank, "java.lang.IllegalStateException", "x", false, OptionalLong.of(iteration));
    }

    private static RankError beforeTheLoop(int rank) {
        return new RankError(rank, "java.lang.IllegalStateException", "x", false, OptionalLong.empty());
    }

    @Test
    void before_earlierIteration_isTheCause() {
        assertThat(at(0, 3).before(at(1, 4))).isTrue();
        assertThat(at(1, 4).before(at(0, 3))).isFalse();
    }

    @Test
    void before_sameIteration_firstReportStays() {
        assertThat(at(0, 4).before(at(1, 4))).isFalse();
        assertThat(at(1, 4).before(at(0, 4))).isFalse();
    }

    @Test
    void before_errorBeforeTheLoop_comesFirst() {
        assertThat(beforeTheLoop(2).before(at(0, 1))).isTrue();
        assertThat(at(0, 1).before(beforeTheLoop(2))).isFalse();
        assertThat(beforeTheLoop(2).before(beforeTheLoop(1))).isFalse();
    }
}
