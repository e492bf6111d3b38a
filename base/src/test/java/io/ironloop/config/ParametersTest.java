package io.ironloop.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParametersTest {
    static final ParameterKey<Duration> WAIT = ParameterKey.duration("TIME_MAX_WAIT", Duration.ofSeconds(5), Duration.ZERO, "timeout");
    static final ParameterKey<Boolean> HB = ParameterKey.section("HB", "heartbeat section");
    static final ParameterKey<Duration> HB_SLEEP = ParameterKey.duration("HB.SLEEP", Duration.ofSeconds(1), Duration.ofMillis(10), "interval");
    static final ParameterKey<Long> SIZE = ParameterKey.size("CHUNK", 1 << 20, 4096, 1L << 30, "chunk");
    static final ParameterKey<Long> EVERY = ParameterKey.integer("EVERY", null, 1, "every N");
    static final ParameterTable TABLE = ParameterTable.of(List.of(WAIT, HB, HB_SLEEP, SIZE, EVERY));

    @TempDir
    Path dir;

    @Test
    void units_parseDurationsAndSizes() {
        assertThat(Units.parseDuration("40s")).isEqualTo(Duration.ofSeconds(40));
        assertThat(Units.parseDuration("20")).isEqualTo(Duration.ofSeconds(20));
        assertThat(Units.parseDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Units.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Units.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Units.parseSize("512MiB")).isEqualTo(512L << 20);
        assertThat(Units.parseSize("1GB")).isEqualTo(1_000_000_000L);
        assertThat(Units.parseSize("4096")).isEqualTo(4096);
        assertThat(Units.formatSize(1 << 20)).isEqualTo("1MiB");
        assertThatThrownBy(() -> Units.parseSize("12 parsecs")).hasMessageContaining("unknown size unit");
        assertThatThrownBy(() -> Units.parseDuration("-1s")).hasMessageContaining("is not a duration");
    }

    @Test
    void load_precedenceIsCliThenEnvironmentThenFileThenDefault() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\"TIME_MAX_WAIT\": 20, \"CHUNK\": \"64KiB\", \"EVERY\": 3}");
        Parameters p = Parameters.load(TABLE, file, Map.of("IRONLOOP_CHUNK", "128KiB", "IRONLOOP_EVERY", "4"), Map.of("EVERY", "5"));
        assertThat(p.get(WAIT)).isEqualTo(Duration.ofSeconds(20));
        assertThat(p.get(SIZE)).isEqualTo(128L << 10);
        assertThat(p.get(EVERY)).isEqualTo(5);
        assertThat(p.source(EVERY)).isEqualTo("the command line");
        assertThat(p.source(SIZE)).isEqualTo("environment variable IRONLOOP_CHUNK");
        assertThat(Parameters.defaults(TABLE).find(EVERY)).isEmpty();
    }

    @Test
    void load_sectionObject_switchesFeatureOnAndReadsFields() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\"HB\": {\"SLEEP\": 2}}");
        Parameters p = Parameters.load(TABLE, file, Map.of(), Map.of());
        assertThat(p.get(HB)).isTrue();
        assertThat(p.get(HB_SLEEP)).isEqualTo(Duration.ofSeconds(2));
        assertThat(Parameters.defaults(TABLE).get(HB)).isNull();
    }

    @Test
    void load_unknownKey_namesKeyAndFile() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\"TIME_MAX_WIAT\": 20}");
        assertThatThrownBy(() -> Parameters.load(TABLE, file, Map.of(), Map.of())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown parameter 'TIME_MAX_WIAT'").hasMessageContaining(file.toString());
    }

    @Test
    void load_badValue_namesKeyValueAndExpectation() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\"CHUNK\": \"lots\"}");
        assertThatThrownBy(() -> Parameters.load(TABLE, file, Map.of(), Map.of())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("bad value for CHUNK").hasMessageContaining("'lots'");
        assertThatThrownBy(() -> Parameters.load(TABLE, null, Map.of(), Map.of("EVERY", "0")))
                .hasMessageContaining("EVERY").hasMessageContaining("below the minimum 1");
    }

    @Test
    void load_malformedJson_reportsLine() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\n \"CHUNK\": \n}");
        assertThatThrownBy(() -> Parameters.load(TABLE, file, Map.of(), Map.of())).hasMessageContaining("not valid JSON (line");
    }

    @Test
    void markdown_listsEveryKeyWithTypeUnitDefaultMeaning() {
        assertThat(TABLE.markdown()).contains("| `TIME_MAX_WAIT` | duration | `s` | `5s` | timeout |")
                .contains("| `EVERY` | int |  | `off` | every N |");
    }
}
