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
        assertThat(Units.parseDuration("5y")).isEqualTo(Duration.ofDays(5 * 365));
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
                .hasMessageContaining("unknown parameter 'TIME_MAX_WIAT'").hasMessageContaining(file.toString())
                .hasMessageContaining("did you mean 'TIME_MAX_WAIT'?");
    }

    @Test
    void load_unrelatedUnknownKey_suggestsNothing() throws Exception {
        Path file = Files.writeString(dir.resolve("p.json"), "{\"COLOUR\": 20}");
        assertThatThrownBy(() -> Parameters.load(TABLE, file, Map.of(), Map.of()))
                .hasMessageContaining("unknown parameter 'COLOUR'").hasMessageNotContaining("did you mean");
    }

    /** Seeded: any one typo (drop, insert, replace, swap, case) of a key of a long name is answered with that key. */
    @Test
    void closest_oneTypoOfAnyKey_suggestsThatKey() {
        java.util.Random random = new java.util.Random(13);
        ParameterTable table = ParameterTable.of(List.of(WAIT, HB, HB_SLEEP, SIZE, EVERY,
                ParameterKey.integer("CHECKPOINTING_GLOBAL_ITERATION", null, 1, "every N"),
                ParameterKey.integer("CHECKPOINTING_LOCAL_ITERATION", null, 1, "every N")));
        for (int trial = 0; trial < 2000; trial++) {
            ParameterKey<?> key = table.keys().get(random.nextInt(table.keys().size()));
            String name = key.name();
            if (name.length() < 6) {
                continue;
            }
            StringBuilder typo = new StringBuilder(name);
            int at = random.nextInt(name.length() - 1);
            char c = (char) ('A' + random.nextInt(26));
            switch (random.nextInt(5)) {
                case 0 -> typo.deleteCharAt(at);
                case 1 -> typo.insert(at, c);
                case 2 -> typo.setCharAt(at, c == name.charAt(at) ? '_' : c);
                case 3 -> {
                    typo.setCharAt(at, name.charAt(at + 1));
                    typo.setCharAt(at + 1, name.charAt(at));
                }
                default -> typo.replace(0, typo.length(), name.toLowerCase(java.util.Locale.ROOT));
            }
            assertThat(table.closest(typo.toString())).as("typo %s of %s", typo, name).contains(name);
        }
        assertThat(table.closest("X")).isEmpty();
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

    @Test
    void load_fifoInPlaceOfTheFile_refusedAtOnceInsteadOfBlocking() throws Exception {
        Path fifo = dir.resolve("params.json");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), fifo);

        for (Path file : List.of(fifo, link)) {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    assertThatThrownBy(() -> Parameters.load(TABLE, file, Map.of(), Map.of()))
                            .isInstanceOf(ConfigurationException.class)
                            .hasMessageContaining("parameter file " + file).hasMessageContaining("named pipe (FIFO)"));
        }
    }

    @Test
    void load_linkToARegularFile_isFollowed() throws Exception {
        Path real = Files.writeString(dir.resolve("shared.json"), "{\"EVERY\": 7}");
        Path link = Files.createSymbolicLink(dir.resolve("params.json"), real);

        assertThat(Parameters.load(TABLE, link, Map.of(), Map.of()).get(EVERY)).isEqualTo(7L);
    }
}
