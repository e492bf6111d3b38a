package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ironloop bench group} at a tiny size: real rank JVMs, every figure present, the output contract. */
class BenchGroupCommandTest {
    private static final List<String> NUMBERS = List.of("ranks", "repetitions", "detection_repetitions", "heartbeat_interval_s",
            "heartbeat_timeout_s", "p2p_over_raw_tcp", "p2p_gbps", "raw_tcp_gbps", "p2p_bytes", "p2p_message_bytes", "allreduce_latency_us",
            "allreduce_latency_bytes", "allreduce_bandwidth_gbps", "allreduce_bandwidth_s", "allreduce_bandwidth_bytes", "allreduce_cpu_s", "allreduce_over_raw_tcp", "detect_kill_s",
            "detect_kill_leader_s", "detect_hang_s");
    private static final List<String> TARGETS = List.of("p2p_target_met", "detect_kill_target_met", "detect_kill_leader_target_met",
            "detect_hang_target_met", "heartbeat_target_met");

    @Test
    void benchGroup_quickJson_printsOneObjectWithEveryFigure() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "group", "-n", "2", "--quick", "--json");

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
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
        List<String> counted = new ArrayList<>();
        o.get("heartbeat_msgs_per_interval").fieldNames().forEachRemaining(counted::add);
        assertThat(counted).containsExactly("2");
        assertThat(o.get("heartbeat_msgs_per_interval").get("2").asDouble()).isPositive();
        assertThat(o.get("ranks").asInt()).isEqualTo(2);
        assertThat(o.get("p2p_over_raw_tcp").asDouble()).isPositive();
        assertThat(o.get("detect_kill_s").asDouble()).isPositive().isLessThan(30);
        assertThat(o.get("detect_hang_s").asDouble()).isGreaterThanOrEqualTo(o.get("heartbeat_timeout_s").asDouble() - o.get("heartbeat_interval_s").asDouble());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench group:").doesNotContain("rank logs kept");
    }

    @Test
    void benchGroup_oneRank_isAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "bench", "group", "-n", "1");
        assertThat(exit).isEqualTo(Main.USAGE);
    }
}
