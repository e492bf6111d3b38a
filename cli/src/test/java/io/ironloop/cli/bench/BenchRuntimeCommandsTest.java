package io.ironloop.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ironloop bench preempt} and {@code ironloop bench overhead} at tiny sizes, with real rank JVMs: with
 * {@code --json} standard output holds exactly one JSON object of numbers (booleans for targets), whatever the
 * ranks print, and the bench leaves its directory empty.
 */
class BenchRuntimeCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    /** Standard output parsed as JSON values: exactly one, an object. */
    private JsonNode onlyJsonObject() throws Exception {
        String text = out.toString(StandardCharsets.UTF_8);
        List<JsonNode> values = new ArrayList<>();
        try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(text)) {
            it.forEachRemaining(values::add);
        }
        assertThat(values).as("standard output:\n%s\nstandard error:\n%s", text, err).hasSize(1);
        assertThat(values.get(0).isObject()).isTrue();
        assertThat(text.strip().lines()).hasSize(1);
        return values.get(0);
    }

    private static void assertNumbersAndTargets(JsonNode figures) {
        figures.fields().forEachRemaining(e -> {
            if (e.getKey().endsWith("_target_met")) {
                assertThat(e.getValue().isBoolean()).as(e.getKey()).isTrue();
            } else if (e.getKey().startsWith("runs_")) {
                assertThat(e.getValue().isArray()).as(e.getKey()).isTrue();
                e.getValue().forEach(v -> assertThat(v.isNumber() && v.asDouble() > 0).as(e.getKey() + " " + v).isTrue());
            } else {
                assertThat(e.getValue().isNumber()).as(e.getKey()).isTrue();
            }
        });
    }

    private static double median(JsonNode values) {
        double[] v = java.util.stream.StreamSupport.stream(values.spliterator(), false).mapToDouble(JsonNode::asDouble).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private boolean isEmpty(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.findAny().isEmpty();
        }
    }

    @Test
    @Timeout(120)
    void preempt_tinySize_printsOneJsonObjectWithEveryFigure() throws Exception {
        int status = run("bench", "preempt", "--size", "1MiB", "--dir", dir.toString(), "--json");

        assertThat(status).as("stderr:\n%s", err).isZero();
        JsonNode figures = onlyJsonObject();
        assertNumbersAndTargets(figures);
        assertThat(figures.path("size_bytes").asLong()).isEqualTo(1L << 20);
        assertThat(figures.path("repetitions").asInt()).isEqualTo(5);
        assertThat(figures.path("signal_to_safe_s").asDouble()).isPositive();
        assertThat(figures.path("raw_write_s").asDouble()).isPositive();
        // the reference is the faster raw write of each repetition (buffered or, where there is one, direct)
        double best = figures.path("raw_write_best_s").asDouble();
        assertThat(best).isPositive().isLessThanOrEqualTo(Math.max(figures.path("raw_write_s").asDouble(),
                figures.path("raw_write_direct_s").asDouble(0)));
        assertThat(figures.path("preempt_over_raw_write").asDouble())
                .isCloseTo(best / figures.path("signal_to_safe_s").asDouble(), org.assertj.core.data.Percentage.withPercentage(1e-6));
        for (String key : List.of("signal_to_safe_min_s", "signal_to_safe_max_s", "preempt_gbps", "raw_write_gbps", "publish_s",
                "signal_delivery_s", "staging_copy_s", "persist_s", "other_s", "trigger_action_s", "signal_to_safe_target_met",
                "preempt_target_met")) {
            assertThat(figures.has(key)).as(key).isTrue();
        }
        assertThat(isEmpty(dir)).as("the bench cleans its directory").isTrue();
    }

    @Test
    @Timeout(300)
    void overhead_tinyHeatBlocks_partnerLevelEveryIterationAgainstNone() throws Exception {
        int status = run("bench", "overhead", "--app", "heat", "-n", "2", "--runs", "5", "--dir", dir.toString(), "--json",
                "--jvm-opt=-Xmx96m", "--jvm-opt=-XX:+UseSerialGC", "--jvm-opt=-XX:TieredStopAtLevel=1", "--", "test", "--steps", "6");

        assertThat(status).as("stderr:\n%s", err).isZero();
        JsonNode figures = onlyJsonObject();
        assertNumbersAndTargets(figures);
        assertThat(figures.path("global_saves_per_run_with").asLong())
                .as("an in-memory snapshot after every iteration but the last (taken by both variants)").isEqualTo(5);
        assertThat(figures.path("snapshots_per_run_with").asLong()).isEqualTo(5);
        assertThat(figures.path("iteration_ms_with").asDouble()).as("timed iterations").isPositive();
        assertThat(figures.path("capture_ms_per_snapshot").asDouble()).as("read from rank 0's last line").isPositive();
        assertThat(figures.path("handshake_wait_ms_per_snapshot").isNumber()).as("read from rank 0's last line").isTrue();
        double cost = figures.path("snapshot_cost_s").asDouble();
        assertThat(figures.path("young_daly_mtbf_s").asDouble()).isEqualTo(3600);
        assertThat(figures.path("young_daly_interval_s").asDouble()).as("√(2·C·MTBF)").isCloseTo(Math.sqrt(2 * cost * 3600), within(1e-9));
        assertThat(figures.path("young_daly_overhead_pct").asDouble()).as("C over the interval")
                .isCloseTo(cost == 0 ? 0 : cost / Math.sqrt(2 * cost * 3600) * 100, within(1e-9));
        // the floor: the same runs with the bare partner copy over raw sockets instead of Ironloop's snapshots
        assertThat(figures.path("runs_raw_copy_s")).as("one raw-copy run per pair").hasSize(5);
        assertThat(figures.path("median_raw_copy_s").asDouble()).isPositive();
        assertThat(figures.path("raw_copy_overhead_pct").asDouble()).isCloseTo((figures.path("median_raw_copy_s").asDouble()
                - figures.path("median_without_s").asDouble()) / figures.path("median_without_s").asDouble() * 100, within(1e-9));
        assertThat(figures.path("loop_raw_copy_overhead_pct").isNumber()).isTrue();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(", raw partner copy ");
        assertThat(isEmpty(dir)).as("the bench cleans its directory").isTrue();
    }

    @Test
    @Timeout(180)
    void overhead_tinyQuickstart_printsOneJsonObjectWithEveryFigure() throws Exception {
        int status = run("bench", "overhead", "--app", "quickstart", "-n", "1", "--runs", "5", "--dir", dir.toString(), "--json",
                "--jvm-opt=-Xmx64m", "--jvm-opt=-XX:+UseSerialGC", "--jvm-opt=-XX:TieredStopAtLevel=1", "--", "1000", "3");

        assertThat(status).as("stderr:\n%s", err).isZero();
        JsonNode figures = onlyJsonObject();
        assertNumbersAndTargets(figures);
        assertThat(figures.path("ranks").asInt()).isEqualTo(1);
        assertThat(figures.path("runs").asInt()).isEqualTo(5);
        assertThat(figures.path("runs_without_s")).as("every run's time").hasSize(5);
        assertThat(figures.path("runs_with_s")).hasSize(5);
        assertThat(figures.path("median_without_s").asDouble()).as("the median of the runs listed")
                .isEqualTo(median(figures.path("runs_without_s")));
        assertThat(figures.path("global_saves_per_run_with").asLong()).as("a global save per iteration").isEqualTo(3);
        double without = figures.path("median_without_s").asDouble();
        double with = figures.path("median_with_s").asDouble();
        assertThat(figures.path("overhead_pct").asDouble())
                .isCloseTo((with - without) / without * 100, org.assertj.core.data.Offset.offset(1e-9));
        for (String key : List.of("rsd_without_pct", "rsd_with_pct", "mean_without_s", "mean_with_s", "loop_overhead_pct",
                "loop_rsd_without_pct", "loop_rsd_with_pct", "loop_median_without_s", "loop_median_with_s", "failed_runs",
                "overhead_target_met")) {
            assertThat(figures.has(key)).as(key).isTrue();
        }
        assertThat(isEmpty(dir)).as("the bench cleans its directory").isTrue();
    }

    @Test
    void preempt_sizeBeyondMemory_isUsageErrorNamingTheMemory() {
        assertThat(run("bench", "preempt", "--size", "100000GiB", "--dir", dir.toString(), "--json")).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("does not fit in memory", "3 x SIZE", "choose a smaller --size");
    }

    @Test
    void overhead_fewerThanFiveRuns_isUsageError() {
        assertThat(run("bench", "overhead", "--app", "quickstart", "--runs", "4", "--dir", dir.toString(), "--json")).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("at least 5 runs");
    }
}
