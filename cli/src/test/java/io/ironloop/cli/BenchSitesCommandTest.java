package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ironloop bench sites} with a small line: every figure present, the output contract. */
class BenchSitesCommandTest {
    private static final List<String> NUMBERS = List.of("replication_gbps", "raw_tcp_gbps", "replication_over_raw_tcp",
            "durable_tcp_gbps", "replication_over_durable_tcp", "replication_encrypted_gbps", "replication_encrypted_over_clear",
            "emulated_link_delay_ms", "emulated_link_gbit", "replication_emulated_gbps", "raw_tcp_emulated_gbps",
            "replication_over_raw_tcp_emulated", "replication_round_trips_per_line", "round_trip_link_delay_ms", "line_bytes",
            "site_timeout_ms", "detection_ms", "recovery_ms", "false_positive_declarations", "link_cut_detection_ms",
            "link_cut_false_positives", "site_overhead_pct", "site_overhead_pct_min", "site_overhead_pct_max", "site_overhead_ci_low_pct",
            "site_overhead_ci_high_pct", "site_overhead_cpu_pct", "app_unprotected_s", "app_protected_s", "app_unprotected_cpu_s",
            "app_protected_cpu_s", "protectors_cpu_s", "protectors_idle_cpu_s", "shipping_cpu_over_app_cpu_pct", "app_pairs", "app_runs_per_side", "app_lines_shipped", "app_lines_per_run", "app_lines_shipped_per_run",
            "app_disk_every", "repetitions");
    private static final List<String> TARGETS = List.of("replication_target_met", "replication_durable_target_met", "replication_emulated_target_met",
            "false_positive_target_met", "site_overhead_target_met");

    @Test
    void benchSites_json_printsOneObjectWithEveryFigure() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "sites", "--line-size", "1MiB", "--repetitions", "5", "--app-size", "test", "--steps", "60", "--every", "20",
                "--pairs", "1", "--pair-seconds", "0", "--json");

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(stdout.strip().lines()).hasSize(1);
        JsonNode o = new ObjectMapper().readTree(stdout);
        for (String k : NUMBERS) {
            assertThat(o.get(k)).as(k).isNotNull();
            assertThat(o.get(k).isNumber()).as(k + " is a JSON number").isTrue();
        }
        for (String k : TARGETS) {
            assertThat(o.get(k).isBoolean()).as(k + " is a JSON boolean").isTrue();
        }
        assertThat(o.size()).isEqualTo(NUMBERS.size() + TARGETS.size());
        // a site is declared a timeout after its last heartbeat (at most one heartbeat before the loss), never sooner
        assertThat(o.get("detection_ms").asDouble()).isGreaterThan(o.get("site_timeout_ms").asDouble() - 60);
        // false_positive_declarations is reported, not asserted: the bench's 300 ms timeout can be missed at load 30+
        assertThat(o.get("replication_gbps").asDouble()).isPositive();
        assertThat(o.get("replication_encrypted_gbps").asDouble()).isPositive();
        // nothing crosses the emulated link faster than its 1 Gbit/s
        assertThat(o.get("replication_emulated_gbps").asDouble()).isPositive().isLessThanOrEqualTo(0.125 * 1.05);
        assertThat(o.get("raw_tcp_emulated_gbps").asDouble()).isLessThanOrEqualTo(0.125 * 1.05);
        // a line's copy takes at least three round trips: the listing, the data file, the commit record
        assertThat(o.get("replication_round_trips_per_line").asDouble()).isGreaterThanOrEqualTo(3);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench sites: detection run 5", "bench sites: cut link run 5",
                "bench sites: site protection every 20 steps, pair 1");
        // a cut link is reported only once the third site's check came back: at least a timeout after the cut
        assertThat(o.get("link_cut_detection_ms").asDouble()).isGreaterThan(o.get("site_timeout_ms").asDouble() - 60);
        // every protected run shipped at least its last line (4 lines a run: steps 0, 20, 40, 60), warm-up and sizing runs included
        assertThat(o.get("app_lines_shipped").asLong()).isGreaterThanOrEqualTo(1 + 2);
        assertThat(o.get("app_lines_per_run").asLong()).isEqualTo(4);
        assertThat(o.get("app_lines_shipped_per_run").asDouble()).isBetween(1.0, 4.0);
        assertThat(o.get("site_overhead_pct_min").asDouble()).isLessThanOrEqualTo(o.get("site_overhead_ci_low_pct").asDouble());
        assertThat(o.get("site_overhead_ci_low_pct").asDouble()).isLessThanOrEqualTo(o.get("site_overhead_pct").asDouble());
        assertThat(o.get("site_overhead_ci_high_pct").asDouble()).isGreaterThanOrEqualTo(o.get("site_overhead_pct").asDouble());
        assertThat(o.get("site_overhead_pct_max").asDouble()).isGreaterThanOrEqualTo(o.get("site_overhead_ci_high_pct").asDouble());
        // CPU seconds come in the kernel's 10 ms steps: a test-size run may count none
        assertThat(o.get("protectors_cpu_s").asDouble()).isNotNegative();
        assertThat(o.get("app_protected_cpu_s").asDouble()).isNotNegative();
    }
}
