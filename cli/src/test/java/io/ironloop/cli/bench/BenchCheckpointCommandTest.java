package io.ironloop.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ironloop bench checkpoint} at a tiny size: one JSON object with the warm figures, the raw read into
 * arrays that the restore target compares with, and either the cold-cache pair or the reason it was skipped.
 */
class BenchCheckpointCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void checkpoint_tinySize_printsWarmAndColdFiguresAgainstRawReadsIntoArrays() throws Exception {
        int status = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "checkpoint", "--size", "2MiB", "--dir", dir.toString(), "--json");

        assertThat(status).as("stderr:\n%s", err).isZero();
        JsonNode figures = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        for (String key : List.of("restore_over_raw_read", "restore_over_raw_read_into_arrays", "restore_gbps", "raw_read_gbps",
                "raw_read_into_arrays_gbps", "persist_over_raw_write", "blocking_over_memcpy", "repetitions")) {
            assertThat(figures.path(key).isNumber()).as(key + " in " + figures).isTrue();
        }
        assertThat(figures.path("restore_target_met").asBoolean())
                .isEqualTo(figures.path("restore_over_raw_read_into_arrays").asDouble() >= 0.9);
        if (figures.has("cold_skipped_reason")) {
            assertThat(figures.path("cold_skipped_reason").asText()).contains("drop_caches");
            assertThat(figures.has("restore_cold_gbps")).isFalse();
        } else {
            for (String key : List.of("restore_cold_gbps", "raw_read_cold_gbps", "restore_cold_over_raw_read_cold")) {
                assertThat(figures.path(key).asDouble()).as(key + " in " + figures).isPositive();
            }
            assertThat(figures.path("restore_cold_over_raw_read_cold").asDouble()).isCloseTo(
                    figures.path("restore_cold_gbps").asDouble() / figures.path("raw_read_cold_gbps").asDouble(),
                    org.assertj.core.data.Percentage.withPercentage(0.01));
            assertThat(figures.path("restore_cold_target_met").isBoolean()).isTrue();
        }
    }
}
