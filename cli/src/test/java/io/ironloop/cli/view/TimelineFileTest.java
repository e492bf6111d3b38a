package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.launcher.TimelineEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TimelineFile}: the JSON-lines file of docs/timeline.md, written and read back. */
class TimelineFileTest {
    @TempDir
    Path dir;

    private final Instant t0 = Instant.parse("2026-11-24T12:00:00.123456789Z");

    private TimelineEvent at(long millis, TimelineEvent.Source source, int attempt, int rank, String type, Map<String, Object> fields) {
        return new TimelineEvent(t0.plusMillis(millis), source, attempt, rank, rank < 0 ? TimelineEvent.NO_PID : 4000 + rank, type, fields);
    }

    @Test
    void writeThenRead_sameEvents() {
        List<TimelineEvent> events = List.of(
                at(0, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_STARTED, Map.of("job", "j", "ranks", 2)),
                at(5, TimelineEvent.Source.SUPERVISOR, 0, 1, TimelineEvent.FAULT_INJECTED, Map.of("signal", "SIGKILL", "iteration", 3)),
                at(9, TimelineEvent.Source.RANK, 0, 0, "detected", Map.of("failed", List.of(1))),
                at(12, TimelineEvent.Source.RANK, 0, 0, "recovered", Map.of("detect_s", 0.25, "source", "memory")));
        try (TimelineFile.Writer w = new TimelineFile.Writer(dir, line -> { })) {
            events.forEach(w);
        }
        assertThat(TimelineFile.read(dir)).isEqualTo(events);
        assertThat(TimelineFile.read(dir.resolve(TimelineFile.NAME))).isEqualTo(events);
    }

    @Test
    void read_twoJobsAndATornLastLine_lastJobUpToTheTear() throws Exception {
        try (TimelineFile.Writer w = new TimelineFile.Writer(dir, line -> { })) {
            w.accept(at(0, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_STARTED, Map.of("job", "first")));
            w.accept(at(1, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_FINISHED, Map.of("status", 0)));
        }
        try (TimelineFile.Writer w = new TimelineFile.Writer(dir, line -> { })) {
            w.accept(at(50, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_STARTED, Map.of("job", "second")));
        }
        Files.writeString(dir.resolve(TimelineFile.NAME), "{\"time\":\"2026-11", StandardOpenOption.APPEND);
        List<TimelineEvent> read = TimelineFile.read(dir);
        assertThat(read).hasSize(1);
        assertThat(read.get(0).fields()).containsEntry("job", "second");
    }

    @Test
    void read_brokenLineInTheMiddle_namesFileAndLine() throws Exception {
        Path file = dir.resolve(TimelineFile.NAME);
        Files.writeString(file, TimelineFile.line(at(0, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_STARTED, Map.of()))
                + "\n[1, 2]\n" + TimelineFile.line(at(1, TimelineEvent.Source.SUPERVISOR, 0, -1, TimelineEvent.JOB_FINISHED, Map.of())) + "\n");
        assertThatThrownBy(() -> TimelineFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(file + " line 2: not a timeline event");
    }

    @Test
    void read_noFile_saysWhereTheLauncherWritesIt() {
        assertThatThrownBy(() -> TimelineFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(TimelineFile.NAME + " does not exist").hasMessageContaining("FT_FOLDER");
    }

    @Test
    void writer_iterationsOfARank_atMostOnePerSecond_otherEventsAll() {
        List<TimelineEvent> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) { // an iteration every 100 ms on two ranks, a save every 10 iterations
            for (int rank = 0; rank < 2; rank++) {
                events.add(at(100L * i, TimelineEvent.Source.RANK, 0, rank, "iteration", Map.of("iteration", i)));
            }
            if (i % 10 == 0) {
                events.add(at(100L * i, TimelineEvent.Source.RANK, 0, 0, "saved", Map.of("iteration", i, "level", "global")));
            }
        }
        try (TimelineFile.Writer w = new TimelineFile.Writer(dir, line -> { })) {
            events.forEach(w);
        }
        List<TimelineEvent> read = TimelineFile.read(dir.resolve(TimelineFile.NAME));
        assertThat(read.stream().filter(e -> e.type().equals("saved"))).hasSize(5);
        assertThat(read.stream().filter(e -> e.type().equals("iteration") && e.rank() == 1).map(e -> e.fields().get("iteration")))
                .containsExactly(0, 10, 20, 30, 40);
    }
}
