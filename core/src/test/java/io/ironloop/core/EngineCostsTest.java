package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.format.Scope;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine records what each line cost once it is durable, and Young/Daly reads those costs, not a zero. */
class EngineCostsTest {
    @TempDir
    Path dir;

    @Test
    void checkpointIfDue_youngDaly_waitsForTheFirstLinesCost_thenUsesIt() {
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            engine.protect("field", Scope.LOCAL, new double[1 << 16]);
            CheckpointPolicy.YoungDaly policy = (CheckpointPolicy.YoungDaly) CheckpointPolicy.youngDaly(engine.costs(), Duration.ofHours(1));
            assertThat(engine.checkpointIfDue(1, policy)).as("the first line measures a cost").isTrue();
            assertThat(engine.checkpointIfDue(2, policy)).as("not again before its cost is known, though lastCost() is still zero").isFalse();
            engine.awaitDurable();
            assertThat(engine.costs().count()).isEqualTo(1);
            Duration cost = engine.costs().mean().orElseThrow();
            assertThat(cost).isEqualTo(engine.lastCost()).isPositive();
            assertThat(policy.interval()).contains(Schedule.youngDaly(cost, Duration.ofHours(1)));
            assertThat(engine.checkpointIfDue(3, policy)).as("an interval of seconds has not passed").isFalse();
        }
    }
}
