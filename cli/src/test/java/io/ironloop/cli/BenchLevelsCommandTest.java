package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop bench levels} at a tiny size: a real bench JVM, every level, every figure present, the output contract. */
class BenchLevelsCommandTest {
    private static final List<String> LEVELS = List.of("partner", "xor", "rs", "disk", "shared", "s3");
    private static final List<String> REFERENCES = List.of("memcpy_gbps", "raw_tcp_gbps", "raw_write_gbps", "xor_encode_gbps",
            "rs_encode_gbps");
    private static final List<String> TARGETS = List.of("rs_target_met", "shared_target_met", "xor_encode_target_met",
            "rs_encode_target_met");

    @Test
    void benchLevels_tinyJson_printsOneObjectWithEveryLevelAndReference(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", "levels", "-n", "3", "--size", "1MiB", "--repetitions", "5", "--dir", dir.toString(), "--json");

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(stdout.strip().lines()).hasSize(1);
        JsonNode o = new ObjectMapper().readTree(stdout);
        List<String> positive = new ArrayList<>(REFERENCES);
        for (String l : LEVELS) {
            positive.add(l + "_checkpoint_gbps");
            positive.add(l + "_recover_s");
        }
        positive.add("rs_recover_m_s");
        positive.add("s3_over_raw_write");
        positive.addAll(List.of("raw_write_direct_gbps", "shared_retention_s", "rs_wire_bound_gbps"));
        for (String k : positive) {
            assertThat(o.get(k)).as(k).isNotNull();
            assertThat(o.get(k).isNumber()).as(k + " is a JSON number").isTrue();
            assertThat(o.get(k).asDouble()).as(k).isPositive();
        }
        for (String k : TARGETS) {
            assertThat(o.get(k)).as(k).isNotNull();
            assertThat(o.get(k).isBoolean()).as(k + " is a JSON boolean").isTrue();
        }
        assertThat(o.get("ranks").asInt()).isEqualTo(3);
        assertThat(o.get("size_bytes").asLong()).isEqualTo(1L << 20);
        assertThat(o.get("repetitions").asInt()).isEqualTo(5);
        assertThat(o.get("xor_k").asInt()).isEqualTo(2);
        assertThat(o.get("rs_k").asInt() + o.get("rs_m").asInt()).isEqualTo(3);
        assertThat(o.get("partner_over_raw_tcp").asDouble())
                .isCloseTo(o.get("partner_checkpoint_gbps").asDouble() / o.get("raw_tcp_gbps").asDouble(), org.assertj.core.data.Offset.offset(1e-9));
        double wire = 1 + (o.get("rs_m").asInt() - 1.0) / o.get("rs_k").asInt(); // rs sends its snapshot and m − 1 shares per rank
        assertThat(o.get("rs_wire_bytes_per_state_byte").asDouble()).isCloseTo(wire, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(o.get("rs_wire_bound_gbps").asDouble())
                .isCloseTo(o.get("raw_tcp_gbps").asDouble() / wire, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(o.get("rs_over_wire_bound").asDouble())
                .isCloseTo(o.get("rs_checkpoint_gbps").asDouble() / o.get("rs_wire_bound_gbps").asDouble(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Files.exists(dir.resolve("ironloop-bench-levels"))).as("the bench's files are removed").isFalse();
    }

    @Test
    void benchLevels_sizeNotAMultipleOfAMebibyte_isAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "bench", "levels", "--size", "1000KiB");
        assertThat(exit).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ironloop bench levels: the size must be a positive multiple of 1 MiB");
    }
}
