package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.cli.KeptCheckpoint.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ironloop plan}: its JSON contract, its text, the costs it is given, and the inputs it refuses. */
class PlanCommandTest {
    @TempDir
    Path dir;

    @Test
    void json_oneObject_withTheContractKeys_andYoungDalyIntervals() throws Exception {
        Run r = run("plan", "--ranks", "100000", "--state-per-rank", "1GiB", "--mtbf-node", "5y", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out()); // the whole of standard output is one object
        assertThat(o.isObject()).isTrue();
        assertThat(o.get("levels")).isNotEmpty();
        for (JsonNode l : o.get("levels")) {
            assertThat(l.get("level").isTextual()).isTrue();
            assertThat(l.get("interval_s").isNumber()).isTrue();
            assertThat(l.get("interval_s").asDouble()).as("sqrt(2 C MTBF) of %s", l)
                    .isCloseTo(Math.sqrt(2 * l.get("cost_s").asDouble() * l.get("mtbf_s").asDouble()), offset(1e-6));
        }
        for (String key : List.of("expected_overhead_pct", "expected_lost_work_s_per_day", "simulated_overhead_pct",
                "simulated_lost_work_s_per_day", "simulated_failures_per_day")) {
            assertThat(o.get(key)).as(key).isNotNull();
            assertThat(o.get(key).isNumber()).as(key).isTrue();
        }
        assertThat(o.get("recommended").asText()).isEqualTo(o.get("candidates").get(0).get("name").asText());
        assertThat(o.get("nodes").asLong()).isEqualTo(100_000);
        // 10^5 nodes with a 5-year MTBF fail 54.8 times a day; the simulation saw about as many
        assertThat(o.get("expected_failures_per_day").asDouble()).isCloseTo(100_000 / (5 * 365.0), offset(1e-6));
        assertThat(o.get("simulated_failures_per_day").asDouble()).isCloseTo(54.8, offset(6.0));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void givenCosts_areUsed_andTheSharedLevelsIntervalIsTheHandComputedOne() throws Exception {
        Run r = run("plan", "--ranks", "1000", "--state-per-rank", "1GiB", "--mtbf-node", "1000d", "--cost", "shared=200s",
                "--recover", "shared=100s", "--cost", "partner=2s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode shared = candidate(new ObjectMapper().readTree(r.out()), "shared");
        assertThat(shared.get("levels").get(0).get("interval_s").asDouble()).as("sqrt(2 * 200 * 86,400)").isCloseTo(5878.775, offset(0.01));
        assertThat(shared.get("levels").get(0).get("recover_s").asDouble()).isEqualTo(100.0);
        assertThat(shared.get("levels").get(0).get("cost_source").asText()).isEqualTo("given");
        assertThat(shared.get("expected_lost_work_s_per_day").asDouble()).isCloseTo(3139.388, offset(0.01));
    }

    @Test
    void benchFile_givesTheLevelsCosts_aGivenCostWins() throws Exception {
        Path bench = Files.writeString(dir.resolve("levels.json"), "{\"partner_checkpoint_gbps\": 2.0, \"s3_checkpoint_gbps\": 50,"
                + " \"memcpy_gbps\": 9.1}");
        Run r = run("plan", "--ranks", "64", "--state-per-rank", "4GB", "--mtbf-node", "1y", "--bench", bench, "--cost", "s3=30s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out());
        JsonNode partner = candidate(o, "partner+shared").get("levels").get(0);
        assertThat(partner.get("cost_s").asDouble()).as("4 GB at 2 GB/s").isCloseTo(2.0, offset(1e-9));
        assertThat(partner.get("cost_source").asText()).contains("levels.json");
        assertThat(candidate(o, "s3").get("levels").get(0).get("cost_s").asDouble()).isEqualTo(30.0);
    }

    @Test
    void bandwidthsFile_isOneNodesFigure_sharedByItsRanks_andScalesTheMeasuredRestore() throws Exception {
        Path bench = Files.writeString(dir.resolve("levels.json"), "{\"size_bytes\": 268435456, \"partner_checkpoint_gbps\": 2.0,"
                + " \"partner_recover_s\": 0.5, \"shared_checkpoint_gbps\": 1.0, \"shared_recover_s\": 9.0}");
        Run r = run("plan", "--ranks", "64", "--ranks-per-node", "4", "--state-per-rank", "1GB", "--mtbf-node", "1y",
                "--bandwidths", bench, "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode o = new ObjectMapper().readTree(r.out());
        JsonNode partner = candidate(o, "partner+shared").get("levels").get(0);
        assertThat(partner.get("cost_s").asDouble()).as("1 GB per rank, 4 ranks sharing a node's 2 GB/s").isCloseTo(2.0, offset(1e-9));
        assertThat(partner.get("recover_s").asDouble()).as("0.5 s for 256 MiB, scaled to 1 GB").isCloseTo(0.5 * 1e9 / 268435456, offset(1e-9));
        JsonNode shared = candidate(o, "partner+shared").get("levels").get(1);
        assertThat(shared.get("cost_s").asDouble()).as("64 GB through the job's 1 GB/s").isCloseTo(64.0, offset(1e-9));
        assertThat(shared.get("cost_source").asText()).contains("levels.json");
    }

    @Test
    void text_namesTheRecommendationAndListsEveryCandidate() {
        Run r = run("plan", "--ranks", "4096", "--state-per-rank", "512MiB", "--mtbf-node", "2y", "--mtbf-rack", "10y", "--mtbf-job", "30d");

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).startsWith("plan for 4096 ranks on 4096 nodes in 128 racks, 512MiB");
        assertThat(lines.get(1)).startsWith("recommended: ").contains("save to ");
        assertThat(lines.get(2)).contains("expected:", "overhead", "lost work");
        assertThat(lines.get(3)).contains("simulated:", "30 virtual days, seed 1");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("candidate ").contains("overhead %", "sim lost s/day"));
        assertThat(lines).anySatisfy(l -> assertThat(l.trim()).startsWith("s3 ").contains("shared by all ranks"));
    }

    @Test
    void badInput_exitTwo_sayingWhatIsWrong() {
        List<String> messages = new ArrayList<>();
        for (String[] args : new String[][] {
            {"plan", "--ranks", "8", "--state-per-rank", "1GiB", "--mtbf-node", "5 parsecs"},
            {"plan", "--ranks", "8", "--state-per-rank", "1GiB", "--mtbf-node", "1y", "--cost", "tape=1h"},
            {"plan", "--ranks", "0", "--state-per-rank", "1GiB", "--mtbf-node", "1y"},
            {"plan", "--ranks", "8", "--state-per-rank", "1GiB", "--mtbf-node", "1y", "--recover", "rs=5s"},
            {"plan", "--state-per-rank", "1GiB", "--mtbf-node", "1y"},
        }) {
            Run r = run((Object[]) args);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            messages.add(r.err());
        }
        assertThat(messages.get(0)).contains("--mtbf-node", "unknown duration unit");
        assertThat(messages.get(1)).contains("unknown level 'tape'", "partner, xor, rs, disk, shared or s3");
        assertThat(messages.get(2)).contains("ranks must be at least 1");
        assertThat(messages.get(3)).contains("--recover rs needs the save's cost too");
        assertThat(messages.get(4)).contains("--ranks");
    }

    private static JsonNode candidate(JsonNode plan, String name) {
        for (JsonNode c : plan.get("candidates")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no candidate " + name + " in " + plan.get("candidates"));
    }
}
