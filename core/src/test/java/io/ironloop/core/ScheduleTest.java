package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScheduleTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @ParameterizedTest
    @CsvSource({"10, 10", "' 3 ', 3", "30s, 30s", "5m, 5m", "1.5h, 90m", "ADAPTIVE, adaptive", "never, never", "0, never"})
    void parse_acceptsCountsDurationsAdaptiveAndNever_printsThemBack(String text, String printed) {
        assertThat(Schedule.parse(text).toString()).isEqualTo(printed);
    }

    @ParameterizedTest
    @CsvSource({"-1", "ten", "adaptive please", "3 parsecs", "''"})
    void parse_rejectsOtherText_namingTheForms(String text) {
        assertThatThrownBy(() -> Schedule.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageFindingMatch("schedule|unit");
    }

    @Test
    void youngDaly_isSquareRootOfTwiceCostTimesMtbf() {
        // C = 8 s, MTBF = 1 h: sqrt(2 * 8 * 3600) = 240 s exactly
        assertThat(Schedule.youngDaly(Duration.ofSeconds(8), Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(240));
        assertThat(Schedule.youngDalySeconds(0.5, 86_400)).isCloseTo(293.94, org.assertj.core.data.Offset.offset(0.01));
        assertThatThrownBy(() -> Schedule.youngDaly(SECOND, Duration.ZERO)).hasMessageContaining("MTBF > 0");
    }

    @Test
    void iterationsUntilNext_convertsEachScheduleToIterations() {
        Duration perIteration = Duration.ofMillis(250);
        Duration mtbf = Duration.ofHours(1);
        assertThat(Schedule.every(7).iterationsUntilNext(perIteration, Optional.empty(), mtbf)).isEqualTo(7);
        assertThat(Schedule.everyTime(Duration.ofSeconds(30)).iterationsUntilNext(perIteration, Optional.empty(), mtbf)).isEqualTo(120);
        assertThat(Schedule.adaptive().iterationsUntilNext(perIteration, Optional.empty(), mtbf))
                .as("no cost known: the next chance measures one").isEqualTo(1);
        // 240 s / 0.25 s
        assertThat(Schedule.adaptive().iterationsUntilNext(perIteration, Optional.of(Duration.ofSeconds(8)), mtbf)).isEqualTo(960);
        assertThat(Schedule.adaptive().iterationsUntilNext(Duration.ofHours(2), Optional.of(Duration.ofSeconds(8)), mtbf))
                .as("never less than one iteration").isEqualTo(1);
        assertThat(Schedule.never().iterationsUntilNext(perIteration, Optional.empty(), mtbf)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void mtbfEstimate_startsAtTheConfiguredValue_andLearnsFromFailuresAndTimeRun() {
        long[] now = {0};
        MtbfEstimate m = MtbfEstimate.learning(Duration.ofHours(10), () -> now[0]);
        assertThat(m.current()).isEqualTo(Duration.ofHours(10));
        now[0] = Duration.ofHours(2).toNanos();
        m.failureSeen();
        m.failureSeen();
        assertThat(m.current()).as("(10 h + 2 h) / (1 + 2)").isEqualTo(Duration.ofHours(4));
        MtbfEstimate fixed = MtbfEstimate.fixed(Duration.ofHours(10));
        fixed.failureSeen();
        assertThat(fixed.current()).isEqualTo(Duration.ofHours(10));
        assertThat(fixed.failures()).isEqualTo(1);
    }

    @Test
    void checkpointCosts_meanOfTheLastFive() {
        CheckpointCosts c = new CheckpointCosts();
        assertThat(c.mean()).isEmpty();
        for (int s = 1; s <= 7; s++) {
            c.record(Duration.ofSeconds(s));
        }
        assertThat(c.mean()).contains(Duration.ofSeconds(5)); // (3+4+5+6+7)/5
        assertThat(c.count()).isEqualTo(7);
    }
}
