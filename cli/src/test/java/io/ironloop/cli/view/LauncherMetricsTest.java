package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.launcher.TimelineEvent;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link LauncherMetrics}: what a relaunched job with an online recovery leaves in the meters. */
class LauncherMetricsTest {
    private final Instant t0 = Instant.parse("2026-11-24T12:00:00Z");

    private TimelineEvent event(TimelineEvent.Source source, int attempt, int rank, String type, Map<String, Object> fields) {
        return new TimelineEvent(t0, source, attempt, rank, TimelineEvent.NO_PID, type, fields);
    }

    private TimelineEvent supervisor(int attempt, int rank, String type, Map<String, Object> fields) {
        return event(TimelineEvent.Source.SUPERVISOR, attempt, rank, type, fields);
    }

    private TimelineEvent rank(int attempt, int rank, String type, Map<String, Object> fields) {
        return event(TimelineEvent.Source.RANK, attempt, rank, type, fields);
    }

    private final LauncherMetrics m = new LauncherMetrics(Clock.fixed(t0.plusSeconds(10), ZoneOffset.UTC));

    @Test
    void relaunchedJob_countsAttemptsFailedRanksRecoveriesAndTheNewestCommit() {
        m.accept(supervisor(0, -1, TimelineEvent.JOB_STARTED, Map.of("job", "job-7", "ranks", 2)));
        m.accept(supervisor(0, -1, TimelineEvent.ATTEMPT_STARTED, Map.of("attempt", 0)));
        m.accept(supervisor(0, 0, TimelineEvent.RANK_STARTED, Map.of()));
        m.accept(supervisor(0, 1, TimelineEvent.RANK_STARTED, Map.of()));
        m.accept(rank(0, 0, "saved", Map.of("iteration", 4, "level", "global")));
        m.accept(rank(0, 1, "saved", Map.of("iteration", 5, "level", "local")));
        m.accept(rank(0, 1, "saved", Map.of("iteration", 6, "level", "memory", "blocking_s", 0.1, "bytes", 10)));
        m.accept(rank(0, 0, "recovered", Map.of("iteration", 4, "lost", java.util.List.of(1))));
        m.accept(supervisor(0, 1, TimelineEvent.RANK_EXITED, Map.of("status", 137)));
        m.accept(supervisor(0, 1, TimelineEvent.FAILURE_DETECTED, Map.of("status", 137)));
        m.accept(supervisor(0, 0, TimelineEvent.RANK_EXITED, Map.of("status", 1))); // stopped because of rank 1: no failure
        m.accept(supervisor(1, -1, TimelineEvent.ATTEMPT_STARTED, Map.of("attempt", 1)));
        m.accept(supervisor(1, 0, TimelineEvent.RANK_STARTED, Map.of()));
        m.accept(rank(1, 0, "iteration", Map.of("iteration", 6)));

        assertThat(m.scrape()).contains(
                "ironloop_launcher_attempts_total{job=\"job-7\"} 2.0",
                "ironloop_launcher_relaunches_total{job=\"job-7\"} 1.0",
                "ironloop_launcher_rank_failures_total{job=\"job-7\"} 1.0",
                "ironloop_launcher_online_recoveries_total{job=\"job-7\"} 1.0",
                "ironloop_launcher_ranks_alive{job=\"job-7\"} 1.0",
                "ironloop_launcher_iteration_committed{job=\"job-7\"} 4.0",
                "ironloop_launcher_iteration{job=\"job-7\"} 6.0");
    }

    @Test
    void savesWithTheirCost_perLevelSavesBytesBlockingAndOverheadPerRank() {
        m.accept(supervisor(0, -1, TimelineEvent.JOB_STARTED, Map.of("job", "job-7", "ranks", 2)));
        m.accept(rank(0, 0, "saved", Map.of("iteration", 4, "level", "memory", "blocking_s", 0.25, "bytes", 1000, "saves", 3)));
        m.accept(rank(0, 1, "saved", Map.of("iteration", 4, "level", "memory", "blocking_s", 0.15, "bytes", 1000)));
        m.accept(rank(0, 0, "saved", Map.of("iteration", 4, "level", "disk", "blocking_s", 0.0, "bytes", 5000)));
        m.accept(rank(0, 0, "saved", Map.of("iteration", 6, "level", "global"))); // an application's own report: no cost

        assertThat(m.scrape()).contains(
                "ironloop_launcher_checkpoint_saves_total{job=\"job-7\",level=\"memory\"} 4.0",
                "ironloop_launcher_checkpoint_bytes_total{job=\"job-7\",level=\"memory\"} 2000.0",
                "ironloop_launcher_checkpoint_blocking_seconds_total{job=\"job-7\",level=\"memory\"} 0.4",
                "ironloop_launcher_checkpoint_overhead{job=\"job-7\",level=\"memory\"} 0.02", // 0.4 s over 10 s × 2 ranks
                "ironloop_launcher_checkpoint_bytes_total{job=\"job-7\",level=\"disk\"} 5000.0",
                "ironloop_launcher_checkpoint_saves_total{job=\"job-7\",level=\"global\"} 1.0",
                "ironloop_launcher_checkpoint_blocking_seconds_total{job=\"job-7\",level=\"global\"} 0.0");
    }

    @Test
    void beforeJobStarted_noMeters() {
        m.accept(supervisor(0, 0, TimelineEvent.RANK_STARTED, Map.of()));
        assertThat(m.scrape()).doesNotContain("ironloop_launcher");
    }
}
