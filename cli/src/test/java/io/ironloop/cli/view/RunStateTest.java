package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.launcher.TimelineEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link RunState}: an online recovery and its cost, as the dashboard's /state.json shows them. */
class RunStateTest {
    private final Instant t0 = Instant.parse("2026-11-24T12:00:00Z");

    private TimelineEvent at(long millis, TimelineEvent.Source source, int rank, String type, Map<String, Object> fields) {
        return new TimelineEvent(t0.plusMillis(millis), source, 0, rank, rank < 0 ? TimelineEvent.NO_PID : 100 + rank, type, fields);
    }

    @Test
    void onlineRecovery_oneFailureRecoveredOnline_costFromFaultToRecovered() throws Exception {
        TimelineEvent.Source sup = TimelineEvent.Source.SUPERVISOR;
        TimelineEvent.Source rank = TimelineEvent.Source.RANK;
        RunState s = RunState.of(List.of(
                at(0, sup, -1, TimelineEvent.JOB_STARTED, Map.of("job", "j1", "ranks", 3, "main", "Heat")),
                at(10, sup, -1, TimelineEvent.ATTEMPT_STARTED, Map.of("attempt", 0)),
                at(20, sup, 0, TimelineEvent.RANK_STARTED, Map.of()),
                at(20, sup, 1, TimelineEvent.RANK_STARTED, Map.of()),
                at(20, sup, 2, TimelineEvent.RANK_STARTED, Map.of()),
                at(30, rank, 0, "plan", Map.of("iterations", 100)),
                at(40, rank, 0, "iteration", Map.of("iteration", 10)),
                at(50, rank, 0, "saved", Map.of("iteration", 10, "level", "disk")),
                at(1000, sup, 2, TimelineEvent.FAULT_INJECTED, Map.of("signal", "SIGKILL", "iteration", 12)),
                at(1010, sup, 2, TimelineEvent.RANK_EXITED, Map.of("status", 137, "signal", "SIGKILL")),
                at(1010, sup, 2, TimelineEvent.RANK_LOST, Map.of("status", 137)),
                at(1500, rank, 0, "detected", Map.of("failed", List.of(2))),
                at(3000, rank, 0, "recovered", Map.of("iteration", 10, "source", "memory", "lost", List.of(2))),
                at(4000, rank, 0, "complete", Map.of("iteration", 100)),
                at(4000, sup, 0, TimelineEvent.RANK_EXITED, Map.of("status", 0)),
                at(4100, sup, -1, TimelineEvent.JOB_FINISHED, Map.of("status", 0, "attempts", 1))));
        JsonNode n = new ObjectMapper().readTree(s.json());
        assertThat(n.get("status").asText()).isEqualTo("succeeded");
        assertThat(n.get("attempts").asInt()).isEqualTo(1);
        assertThat(n.get("online_recoveries").asInt()).isEqualTo(1);
        assertThat(n.get("last_iteration").asLong()).isEqualTo(100);
        assertThat(n.get("ranks")).hasSize(3);
        assertThat(n.get("ranks").get(0).get("state").asText()).isEqualTo("complete");
        assertThat(n.get("ranks").get(2).get("state").asText()).isEqualTo("lost");
        assertThat(n.get("failures")).hasSize(1);
        JsonNode f = n.get("failures").get(0);
        assertThat(f.get("rank").asInt()).isEqualTo(2);
        assertThat(f.get("what").asText()).isEqualTo("injected SIGKILL");
        assertThat(f.get("iteration").asLong()).isEqualTo(12);
        assertThat(f.get("detected_s").asDouble()).isEqualTo(1.5);
        assertThat(f.get("recovery").asText()).isEqualTo("online");
        assertThat(f.get("lost_s").asDouble()).isEqualTo(2.0);
        assertThat(n.get("overhead").get("failures_fraction").asDouble()).isEqualTo(2.0 / 4.1, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(n.get("levels").get(0).get("level").asText()).isEqualTo("disk");
        assertThat(s.svg()).contains("class=\"recovery\" data-rank=\"0\"", "class=\"failure\" data-rank=\"2\"");
    }

    @Test
    void otherRanksExitingAfterAFailure_areStoppedNotFailures_timeLostCountsUntilNow() throws Exception {
        TimelineEvent.Source sup = TimelineEvent.Source.SUPERVISOR;
        RunState s = new RunState(java.time.Clock.fixed(t0.plusSeconds(10), java.time.ZoneOffset.UTC));
        List.of(at(0, sup, -1, TimelineEvent.JOB_STARTED, Map.of("job", "j2", "ranks", 2)),
                at(100, sup, 1, TimelineEvent.RANK_EXITED, Map.of("status", 3)),
                at(200, sup, 0, TimelineEvent.RANK_EXITED, Map.of("status", 1))).forEach(s);
        JsonNode n = new ObjectMapper().readTree(s.json());
        assertThat(n.get("status").asText()).isEqualTo("running");
        assertThat(n.get("failures")).hasSize(1);
        assertThat(n.get("failures").get(0).get("what").asText()).isEqualTo("exited with status 3");
        assertThat(n.get("ranks").get(0).get("state").asText()).isEqualTo("stopped");
        assertThat(n.get("failures").get(0).get("recovering").asBoolean()).as("not recovered yet").isTrue();
        assertThat(n.get("failures").get(0).get("lost_s").asDouble()).as("from the exit to now").isEqualTo(9.9);
        assertThat(n.get("elapsed_s").asDouble()).isEqualTo(10.0);
        assertThat(s.svg()).contains("class=\"stopped\" data-rank=\"0\"");
    }

    @Test
    void savesWithTheirCost_levelByLevel_overheadIsBlockingOverElapsedPerRank_oldSavesWithoutCostStillCount() throws Exception {
        TimelineEvent.Source sup = TimelineEvent.Source.SUPERVISOR;
        TimelineEvent.Source rank = TimelineEvent.Source.RANK;
        RunState s = new RunState(java.time.Clock.fixed(t0.plusSeconds(10), java.time.ZoneOffset.UTC));
        List.of(at(0, sup, -1, TimelineEvent.JOB_STARTED, Map.of("job", "j3", "ranks", 2, "spares", 1)),
                at(100, rank, 0, "saved", Map.of("iteration", 2, "level", "memory", "blocking_s", 0.3, "bytes", 4096)),
                at(900, rank, 1, "saved", Map.of("iteration", 8, "level", "memory", "blocking_s", 0.5, "bytes", 12288, "saves", 3)),
                at(950, rank, 0, "saved", Map.of("iteration", 8, "level", "disk", "blocking_s", 0.0, "bytes", 20000)),
                at(990, rank, 0, "saved", Map.of("iteration", 8, "level", "global"))).forEach(s); // as a file written before costs

        JsonNode n = new ObjectMapper().readTree(s.json());
        JsonNode disk = n.get("levels").get(0);
        JsonNode global = n.get("levels").get(1);
        JsonNode memory = n.get("levels").get(2);
        assertThat(memory.get("level").asText()).isEqualTo("memory");
        assertThat(memory.get("saves").asLong()).isEqualTo(4);
        assertThat(memory.get("bytes").asLong()).isEqualTo(16384);
        assertThat(memory.get("blocking_s").asDouble()).isEqualTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(memory.get("overhead_fraction").asDouble()).as("0.8 s over 10 s × 2 ranks (the spare does not save)")
                .isEqualTo(0.04, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(disk.get("bytes").asLong()).isEqualTo(20000);
        assertThat(disk.get("overhead_fraction").asDouble()).isZero();
        assertThat(global.get("saves").asLong()).isEqualTo(1);
        assertThat(global.has("bytes")).as("a save without its cost has none").isFalse();
        assertThat(n.get("overhead").get("checkpoints").asLong()).isEqualTo(6);
        assertThat(n.get("overhead").get("blocking_s").asDouble()).isEqualTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(n.get("overhead").get("blocking_fraction").asDouble()).isEqualTo(0.04, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void recentEvents_routineSaves_leftOutButCounted() throws Exception {
        TimelineEvent.Source rank = TimelineEvent.Source.RANK;
        RunState s = new RunState(java.time.Clock.fixed(t0.plusSeconds(10), java.time.ZoneOffset.UTC));
        List.of(at(0, TimelineEvent.Source.SUPERVISOR, -1, TimelineEvent.JOB_STARTED, Map.of("job", "j4", "ranks", 2)),
                at(100, rank, 0, "saved", Map.of("iteration", 4, "level", "global")),
                at(110, rank, 1, "saved", Map.of("iteration", 4, "level", "global-copy")),
                at(120, rank, 0, "saved", Map.of("iteration", 4, "level", "global-shared")),
                at(130, rank, 1, "saved", Map.of("iteration", 4, "level", "local-s3")),
                at(140, rank, 0, "saved", Map.of("iteration", 6, "level", "memory")),
                at(150, rank, 1, "saved", Map.of("iteration", 4, "level", "local"))).forEach(s);

        JsonNode n = new ObjectMapper().readTree(s.json());
        List<String> recentSaves = new java.util.ArrayList<>();
        n.get("recent").forEach(e -> {
            if (e.get("type").asText().equals("saved")) {
                recentSaves.add(e.get("fields").asText().replaceAll(".*level=([^,}]+).*", "$1"));
            }
        });
        assertThat(recentSaves).as("the lines a job restarts from, not their copies or the in-memory snapshots")
                .containsExactly("global", "local");
        assertThat(n.get("overhead").get("checkpoints").asLong()).as("every save still counts").isEqualTo(6);
    }
}
