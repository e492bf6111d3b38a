package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.benchmarks.recovery.RecoveryBench;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ironloop bench recovery} at a tiny size: real rank JVMs, kill -9, every figure present, the output contract. */
class BenchRecoveryCommandTest {
    private static final List<String> NUMBERS = List.of("ranks", "size_bytes", "block_bytes", "repetitions", "partner_over_raw_tcp",
            "partner_gbps", "raw_tcp_gbps", "partner_s", "raw_tcp_s", "raw_tcp_cached_gbps", "partner_over_raw_tcp_cached", "partner_aggregate_gbps", "blocking_over_memcpy", "blocking_s",
            "memcpy_s", "capture_over_memcpy", "capture_s", "memory_factor_measured", "memory_factor_formula", "rss_factor_measured",
            "detect_s", "agree_s", "shrink_s", "restore_s", "rebalance_s", "restore_rebalance_s", "reprotect_s", "kill_to_next_iteration_s",
            "after_detect_s", "spare_detect_s", "spare_agree_s", "spare_shrink_s", "spare_restore_s", "spare_rebalance_s",
            "spare_restore_rebalance_s", "spare_reprotect_s", "spare_kill_to_next_iteration_s", "spare_after_detect_s", "jobs", "elapsed_s");
    private static final List<String> TARGETS = List.of("partner_target_met", "partner_gbps_target_met", "blocking_target_met",
            "restore_rebalance_target_met", "kill_to_next_iteration_target_met", "spare_restore_rebalance_target_met",
            "spare_kill_to_next_iteration_target_met", "memory_factor_target_met");

    @Test
    void benchRecovery_smallJson_printsOneObjectWithEveryFigure() throws Exception {
        // The command's own path with 2 repetitions instead of the 5 it requires of a measurement: each repetition
        // is two jobs with a kill, and the output contract does not depend on how many there are.
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, Object> figures = RecoveryBench.run(RecoveryBench.Options.of(3, 4L << 20, 2), new PrintWriter(err, true));
        BenchCommand.print(figures, true, new PrintWriter(out, true));

        String stdout = out.toString();
        assertThat(stdout.strip().lines()).hasSize(1);
        JsonNode o = new ObjectMapper().readTree(stdout);
        for (String k : NUMBERS) {
            assertThat(o.get(k)).as(k).isNotNull();
            assertThat(o.get(k).isNumber()).as(k + " is a JSON number").isTrue();
        }
        for (String k : TARGETS) {
            assertThat(o.get(k)).as(k).isNotNull();
            assertThat(o.get(k).isBoolean()).as(k + " is a JSON boolean").isTrue();
        }
        assertThat(o.size()).isEqualTo(NUMBERS.size() + TARGETS.size());
        assertThat(o.get("ranks").asInt()).isEqualTo(3);
        assertThat(o.get("size_bytes").asLong()).isEqualTo(4L << 20);
        assertThat(o.get("repetitions").asInt()).isEqualTo(2);
        assertThat(o.get("memory_factor_formula").asDouble()).isEqualTo(5.0);
        assertThat(o.get("partner_over_raw_tcp").asDouble()).isPositive();
        assertThat(o.get("blocking_over_memcpy").asDouble()).isPositive();
        assertThat(o.get("detect_s").asDouble()).isPositive().isLessThan(30);
        assertThat(o.get("kill_to_next_iteration_s").asDouble()).isGreaterThan(o.get("detect_s").asDouble());
        assertThat(o.get("spare_kill_to_next_iteration_s").asDouble()).isGreaterThan(o.get("spare_detect_s").asDouble());
        assertThat(o.get("restore_rebalance_s").asDouble()).isPositive();
        assertThat(err.toString()).contains("bench recovery:").doesNotContain("rank logs kept");
    }

    @Test
    void benchRecovery_sizeNotAMultipleOfAMebibyte_isAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "bench", "recovery", "--size", "1000KiB");
        assertThat(exit).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ironloop bench recovery: bad --size");
    }
}
