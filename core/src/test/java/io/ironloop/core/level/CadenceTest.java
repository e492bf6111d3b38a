package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.Schedule;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CadenceTest {
    private static final Duration TEN_MS = Duration.ofMillis(10);
    private static final Duration HOUR = Duration.ofHours(1);

    @Test
    void every_takesChanceZeroAndEveryNth_withoutFigures() {
        Cadence c = new Cadence("disk", Schedule.every(3));
        List<Long> taken = new ArrayList<>();
        for (long chance = 0; chance < 10; chance++) {
            if (c.due(chance, chance * 5)) {
                taken.add(chance);
            }
        }
        assertThat(taken).containsExactly(0L, 3L, 6L, 9L);
        assertThat(c.needsFigures()).isFalse();
    }

    @Test
    void with_anotherSchedule_continuesFromTheLastSave() {
        Cadence c = new Cadence("memory", Schedule.every(100));
        c.saved(40);
        Cadence counted = c.with(Schedule.every(4));
        assertThat(counted.lastSaved()).isEqualTo(40);
        assertThat(counted.due(41, 41)).isFalse();
        assertThat(counted.due(44, 44)).as("a count takes its multiples at once").isTrue();

        Cadence timed = c.with(Schedule.everyTime(Duration.ofMillis(50)));
        assertThat(timed.due(41, 41)).as("a time schedule waits for figures").isFalse();
        timed.reschedule(TEN_MS, Optional.empty(), HOUR);
        assertThat(timed.nextIteration()).as("50 ms of 10 ms iterations after the save at 40").isEqualTo(45);
    }

    @Test
    void adaptive_nextSaveFollowsCostAndMtbf_andWaitsForAFirstCost() {
        Cadence c = new Cadence("memory", Schedule.adaptive());
        assertThat(c.due(0, 0)).as("the first chance is taken: it measures a cost").isTrue();
        c.saved(0);
        assertThat(c.due(1, 1)).as("no more until rescheduled").isFalse();
        c.reschedule(TEN_MS, Optional.empty(), HOUR);
        assertThat(c.nextIteration()).as("no cost known yet: wait for it").isEqualTo(Long.MAX_VALUE);
        // C = 8 s, MTBF 1 h: 240 s = 24 000 iterations of 10 ms after the save at 0
        c.reschedule(TEN_MS, Optional.of(Duration.ofSeconds(8)), HOUR);
        assertThat(c.nextIteration()).isEqualTo(24_000);
        assertThat(c.due(5, 23_999)).isFalse();
        assertThat(c.due(6, 24_000)).isTrue();
        c.saved(24_000);
        c.reschedule(TEN_MS, Optional.of(Duration.ofSeconds(2)), HOUR); // C / 4: half the interval
        assertThat(c.nextIteration()).isEqualTo(24_000 + 12_000);
        c.reschedule(TEN_MS, Optional.of(Duration.ofSeconds(2)), Duration.ofMinutes(15)); // MTBF / 4: half again
        assertThat(c.nextIteration()).isEqualTo(24_000 + 6_000);
    }

    @Test
    void scheduledLevel_passesSkippedSnapshotsOn_andCommitsOnlyWhatItWrote() throws IOException {
        RecordingLevel disk = new RecordingLevel();
        ScheduledLevel scheduled = new ScheduledLevel(disk, new Cadence("disk", Schedule.every(2)));
        RecordingLevel after = new RecordingLevel();
        LevelChain chain = new LevelChain(List.of(scheduled, after));
        for (long it = 10; it <= 40; it += 10) {
            chain.write(new Snapshot(0, it, List.of()));
            chain.commit(it);
        }
        assertThat(disk.written).containsExactly(10L, 30L);
        assertThat(disk.committed).containsExactly(10L, 30L);
        assertThat(after.written).as("the levels behind see every snapshot").containsExactly(10L, 20L, 30L, 40L);
        assertThat(scheduled.lastWritten()).isEqualTo(30);
    }

    private static final class RecordingLevel implements Level {
        final List<Long> written = new ArrayList<>();
        final List<Long> committed = new ArrayList<>();

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public void write(Chain chain) throws IOException {
            written.add(chain.snapshot().iteration());
            chain.proceed();
        }

        @Override
        public void commit(long iteration) {
            committed.add(iteration);
        }

        @Override
        public void abort(long iteration) {
        }

        @Override
        public Map<Long, Long> holdings() {
            return new HashMap<>();
        }

        @Override
        public Optional<BlockImage> read(long blockId, long iteration) {
            return Optional.empty();
        }

        @Override
        public double copiesInMemory() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
