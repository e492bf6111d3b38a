package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.examples.device.DeviceApp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ironloop bench devices} at its test size on the pure-Java device: the output contract and every figure. */
class BenchDevicesCommandTest {
    private static final List<String> PER_EXAMPLE = List.of("plain_s", "instrumented_s", "tracking_overhead_pct", "tracking_overhead_ci_low_pct",
            "tracking_overhead_ci_high_pct", "tracking_overhead_min_pct", "tracking_overhead_max_pct", "tracking_pairs", "tracking_cpu_overhead_pct",
            "tracking_cpu_overhead_ci_low_pct", "tracking_cpu_overhead_ci_high_pct", "tracking_calls_pct", "tracking_calls_warm_pct",
            "tracking_unaccounted_s", "tracking_unaccounted_ci_low_s", "tracking_unaccounted_ci_high_s",
            "tracking_target_from_s", "instrumentation_calls_s", "instrumentation_fixed_s", "instrumentation_open_s", "instrumentation_register_s",
            "instrumentation_checks_s", "instrumentation_per_iteration_us", "instrumentation_finish_s", "engine_threads_cpu_s",
            "extra_allocated_bytes", "extra_gc_s", "checkpointed_s", "checkpoint_overhead_pct", "checkpoints", "protocol_ms",
            "snapshot_ms", "write_ms", "checkpoint_file_bytes", "protocol_bytes", "naive_bytes", "protocol_bytes_over_naive", "restart_read_s",
            "restart_position_s");

    @Test
    void benchDevices_javaDevice_printsOneObjectWithEveryFigure() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "devices", "--device", "java", "--devices", "2", "--size", "test", "--pairs", "2", "--json");

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(stdout.strip().lines()).hasSize(1);
        JsonNode o = new ObjectMapper().readTree(stdout);
        assertThat(o.get("devices").asText()).startsWith("java");
        assertThat(o.get("repetitions").asInt()).isEqualTo(5);
        for (String app : DeviceApp.NAMES) {
            for (String figure : PER_EXAMPLE) {
                JsonNode v = o.get(app + "_" + figure);
                assertThat(v).as(app + "_" + figure).isNotNull();
                assertThat(v.isNumber()).as(app + "_" + figure + " is a JSON number").isTrue();
            }
            assertThat(o.get(app + "_plain_s").asDouble()).as(app).isPositive();
            assertThat(o.get(app + "_tracking_pairs").asInt()).isEqualTo(2);
            // the headline is the median ratio of whole runs in fresh JVMs; with two pairs its interval is their extremes
            double median = o.get(app + "_tracking_overhead_pct").asDouble();
            assertThat(o.get(app + "_tracking_overhead_ci_low_pct").asDouble()).isLessThanOrEqualTo(median)
                    .isEqualTo(o.get(app + "_tracking_overhead_min_pct").asDouble());
            assertThat(o.get(app + "_tracking_overhead_ci_high_pct").asDouble()).isGreaterThanOrEqualTo(median)
                    .isEqualTo(o.get(app + "_tracking_overhead_max_pct").asDouble());
            assertThat(o.get(app + "_tracking_cpu_overhead_ci_low_pct").asDouble())
                    .isLessThanOrEqualTo(o.get(app + "_tracking_cpu_overhead_pct").asDouble());
            // the direct accounting: Ironloop's calls, timed in the same instrumented runs (each part a median of its
            // own), and what they cost elsewhere (the engine's threads' CPU, the extra collections), over the plain run
            double calls = o.get(app + "_instrumentation_calls_s").asDouble();
            double engineCpu = o.get(app + "_engine_threads_cpu_s").asDouble();
            assertThat(engineCpu).as(app + " engine threads' CPU: its writer idles when no checkpoint fires").isBetween(0.0, calls);
            assertThat(calls).as(app + " calls").isPositive().isLessThan(o.get(app + "_instrumented_s").asDouble());
            assertThat(o.get(app + "_instrumentation_fixed_s").asDouble()).as(app + " fixed")
                    .isGreaterThanOrEqualTo(o.get(app + "_instrumentation_open_s").asDouble());
            assertThat(o.get(app + "_tracking_target_from_s").asDouble()).as(app).isPositive();
            for (String part : List.of("open", "register", "checks", "finish")) {
                assertThat(o.get(app + "_instrumentation_" + part + "_s").asDouble()).as(app + " " + part).isPositive().isLessThanOrEqualTo(calls * 2);
            }
            assertThat(o.get(app + "_tracking_calls_pct").asDouble()).as(app)
                    .isCloseTo((calls + engineCpu + Math.max(0, o.get(app + "_extra_gc_s").asDouble())) / o.get(app + "_plain_s").asDouble() * 100,
                            offset(1e-6));
            assertThat(o.get(app + "_checkpoints").asInt()).as(app + " checkpointed").isPositive();
            assertThat(o.get(app + "_protocol_bytes_over_naive").asDouble()).isBetween(0.0, 1.0);
        }
        // Fig. 4 of the paper in miniature: spmv brings home only the vector its kernel writes, not the matrix.
        assertThat(o.get("spmv_protocol_bytes_over_naive").asDouble()).isLessThan(0.5);
        for (String k : List.of("tracking_overhead_pct", "protocol_bytes_over_naive", "transfer_over_raw", "transfer_gbps", "raw_transfer_gbps")) {
            assertThat(o.get(k).isNumber()).as(k).isTrue();
        }
        assertThat(o.get("tracking_target_met").isBoolean()).isTrue();
        assertThat(o.get("transfer_target_met").isBoolean()).isTrue();
        assertThat(o.get("tracking_pairs").asInt()).isEqualTo(2);
        assertThat(o.get("tracking_target_met").asBoolean()).as("two pairs cannot show 1 %: their interval is not 95 %").isFalse();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench devices: spmv pair 1:");
    }

    @Test
    void benchDevices_noPairs_isAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "bench", "devices", "--pairs", "0");
        assertThat(exit).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--pairs");
    }
}
