package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ironloop bench skeleton} with few steps: every figure present, the output contract. */
class BenchSkeletonCommandTest {
    private static final List<String> NUMBERS = List.of("overhead_pct_no_checkpoint", "overhead_pct_checkpoint", "checkpoint_cost_pct",
            "checkpoint_size_ratio_unregistered", "checkpoint_bytes_registered", "checkpoint_bytes_unregistered", "restart_light_s", "restart_read_s", "restart_positioning_s", "restart_total_s", "handwritten_s",
            "skeleton_s", "handwritten_checkpoint_s", "skeleton_checkpoint_s", "loc_heat_skeleton", "loc_heat_handwritten", "loc_circulation_skeleton",
            "loc_circulation_handwritten", "loc_swing_skeleton", "loc_swing_handwritten", "steps", "cells",
            "repetitions", "overhead_pct_no_checkpoint_min", "overhead_pct_no_checkpoint_max", "overhead_pct_checkpoint_min",
            "overhead_pct_checkpoint_max", "overhead_pct_no_checkpoint_same_split", "overhead_pct_no_checkpoint_same_split_min",
            "overhead_pct_no_checkpoint_same_split_max", "overhead_pct_no_checkpoint_cpu", "overhead_pct_no_checkpoint_same_split_cpu",
            "handwritten_slabs_s", "runs_per_side_no_checkpoint", "runs_per_side_checkpoint",
            "pair_seconds");
    private static final List<String> TARGETS = List.of("overhead_no_checkpoint_target_met", "overhead_checkpoint_target_met",
            "checkpoint_size_target_met");

    @Test
    void benchSkeleton_json_printsOneObjectWithEveryFigure() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "skeleton", "--size", "test", "--steps", "4", "--repetitions", "5", "--pair-seconds", "0", "--json");

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
        assertThat(o.get("checkpoint_size_ratio_unregistered").asDouble()).isBetween(0.5, 0.51);
        assertThat(o.get("checkpoint_size_target_met").asBoolean()).isTrue();
        for (String example : List.of("heat", "circulation", "swing")) {
            assertThat(o.get("loc_" + example + "_skeleton").asLong()).as(example).isPositive()
                    .isLessThanOrEqualTo(o.get("loc_" + example + "_handwritten").asLong());
        }
        assertThat(o.get("skeleton_s").asDouble()).isPositive();
        assertThat(o.get("restart_read_s").asDouble()).isPositive().isLessThan(o.get("restart_total_s").asDouble());
        assertThat(o.get("overhead_pct_checkpoint_min").asDouble()).isLessThanOrEqualTo(o.get("overhead_pct_checkpoint").asDouble())
                .isLessThanOrEqualTo(o.get("overhead_pct_checkpoint_max").asDouble());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench skeleton: checkpoint every step to disk, pair 5");
    }

    @Test
    void benchSkeleton_tooFewRepetitions_isAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "bench", "skeleton", "--repetitions", "2");
        assertThat(exit).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--repetitions must be at least 5");
    }
}
