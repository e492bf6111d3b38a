package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Restart strategies as Flink users know them, the restart count, and restart storms. */
class RestartPolicyTest {
    private static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");

    @Test
    void exponentialDelay_doublesAndIsCapped_andRestartsAreCounted() {
        RestartPolicy p = new RestartPolicy(10, new RestartStrategy.ExponentialDelay(Duration.ofMillis(500), Duration.ofSeconds(3)), 3);
        assertThat(List.of(p.delayBefore(1), p.delayBefore(2), p.delayBefore(3), p.delayBefore(4), p.delayBefore(9)))
                .containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
                        Duration.ofSeconds(3), Duration.ofSeconds(3));
        assertThat(p.refusal(9, T0)).isEmpty();
        assertThat(p.refusal(10, T0)).hasValue("no restarts left (--restarts 10)");
    }

    @Test
    void fixedDelay_sameDelayEveryTime() {
        RestartPolicy p = new RestartPolicy(3, new RestartStrategy.FixedDelay(Duration.ofSeconds(2)), 3);
        assertThat(List.of(p.delayBefore(1), p.delayBefore(2), p.delayBefore(3))).containsOnly(Duration.ofSeconds(2));
    }

    @Test
    void failureRate_refusesMoreFailuresWithinTheIntervalThanAllowed_andForgetsOldOnes() {
        RestartPolicy p = new RestartPolicy(Integer.MAX_VALUE,
                new RestartStrategy.FailureRate(2, Duration.ofMinutes(1), Duration.ofMillis(100)), 3);
        int attempt = 0;
        for (Instant t : List.of(T0, T0.plusSeconds(30))) { // two failures within a minute: allowed
            p.recordFailure(failure(attempt, false), t);
            assertThat(p.refusal(attempt++, t)).as("failure at %s", t).isEmpty();
        }
        Instant third = T0.plusSeconds(50);
        p.recordFailure(failure(attempt, false), third);
        assertThat(p.refusal(attempt, third)).get().asString()
                .contains("3 failures within 1m", "more than the 2", "failure-rate");

        RestartPolicy q = new RestartPolicy(Integer.MAX_VALUE,
                new RestartStrategy.FailureRate(2, Duration.ofMinutes(1), Duration.ofMillis(100)), 3);
        for (int i = 0; i < 10; i++) { // one failure every 40 s: never more than 2 within a minute
            Instant t = T0.plusSeconds(40L * i);
            q.recordFailure(failure(i, false), t);
            assertThat(q.refusal(i, t)).as("failure %d", i).isEmpty();
        }
        assertThat(q.delayBefore(7)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void strategies_parseFromTheirFlinkNames_andRejectBadSettings() {
        Duration d = Duration.ofSeconds(1);
        assertThat(RestartStrategy.of("fixed-delay", d, d, 1, d)).isEqualTo(new RestartStrategy.FixedDelay(d));
        assertThat(RestartStrategy.of("Exponential-Delay", d, Duration.ofSeconds(8), 1, d))
                .isEqualTo(new RestartStrategy.ExponentialDelay(d, Duration.ofSeconds(8)));
        assertThat(RestartStrategy.of("failure-rate", d, d, 3, Duration.ofMinutes(5)))
                .isEqualTo(new RestartStrategy.FailureRate(3, Duration.ofMinutes(5), d));
        assertThatThrownBy(() -> RestartStrategy.of("sometimes", d, d, 1, d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fixed-delay, exponential-delay or failure-rate");
        assertThatThrownBy(() -> new RestartStrategy.ExponentialDelay(Duration.ofSeconds(5), d))
                .hasMessageContaining("maximum backoff 1s is below the backoff 5s");
        assertThatThrownBy(() -> new RestartStrategy.FailureRate(0, d, d)).hasMessageContaining("at least 1");
    }

    @Test
    void launchSpec_failureRateWithoutRestartsIsUnlimited_andDelaysGoInOnePlace() {
        LaunchSpec.Builder base = LaunchSpec.builder().ranks(1).application(Application.of("com.example.Main", Path.of("")));
        assertThat(base.restartStrategy(new RestartStrategy.FailureRate(1, Duration.ofMinutes(1), Duration.ZERO)).build().restarts())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(LaunchSpec.builder().ranks(1).application(Application.of("com.example.Main", Path.of(""))).build().restartStrategy())
                .isEqualTo(new RestartStrategy.ExponentialDelay(LaunchSpec.DEFAULT_BACKOFF, LaunchSpec.DEFAULT_MAX_BACKOFF));
        assertThatThrownBy(() -> LaunchSpec.builder().ranks(1).application(Application.of("com.example.Main", Path.of("")))
                .backoff(Duration.ofSeconds(1)).restartStrategy(new RestartStrategy.FixedDelay(Duration.ZERO)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("in the restart strategy");
    }

    @Test
    void restartStorm_onlyForRepeatedFailuresAtTheSameIteration() {
        RestartPolicy p = new RestartPolicy(10, new RestartStrategy.FixedDelay(Duration.ZERO), 3);
        assertThat(p.recordFailure(failure(7, false), T0)).isEmpty();
        assertThat(p.recordFailure(failure(9, false), T0)).isEmpty();
        assertThat(p.recordFailure(failure(9, false), T0)).isEmpty();
        assertThat(p.recordFailure(failure(9, true), T0)).as("injected faults are not storms").isEmpty();
        assertThat(p.recordFailure(failure(9, false), T0)).isEmpty();
        assertThat(p.recordFailure(failure(9, false), T0)).isEmpty();
        assertThat(p.recordFailure(failure(9, false), T0)).get().asString().contains("restart storm", "iteration 9");
    }

    private static AttemptOutcome failure(long iteration, boolean injected) {
        return new AttemptOutcome(3, 0, OptionalLong.of(iteration), injected, Optional.empty(), Optional.empty());
    }
}
