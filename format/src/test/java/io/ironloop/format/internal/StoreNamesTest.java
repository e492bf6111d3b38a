package io.ironloop.format.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoreNamesTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "rank-0.ilc", "rank-00003/line-000000000042.ilc", "global/line-000000000001.commit", "a.b/c..d/e",
            "-x/_y", "a/b/c"})
    void problem_validStoreRelativeName_isNull(String name) {
        assertThat(StoreNames.problem(name)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/etc/passwd", "..", "../x", "a/..", "a/../b", ".", "./a", "a//b", "a/", "a\\b", "C:x", "a\u0000b", "a\nb",
            "ü/名前", "a.b/...", ".hidden/x", "s/x.ilc.tmp", "a b/c"})
    void problem_nameLeavingTheStoreOrMalformed_isReported(String name) {
        assertThat(StoreNames.problem(name)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {1024, 1025})
    void problem_longNames_limitedTo1024Characters(int length) {
        String name = ("x".repeat(99) + "/").repeat(11).substring(0, length);
        name = name.endsWith("/") ? name.substring(0, name.length() - 1) + "y" : name;
        assertThat(StoreNames.problem(name) == null).isEqualTo(length <= 1024);
    }

    @Test
    void check_exactlySeriesSlashFile_elseIllegalArgument() {
        assertThat(StoreNames.check("rank-00000/line-000000000001.ilc")).isEqualTo("rank-00000/line-000000000001.ilc");
        for (String bad : new String[] {"x.ilc", "a/b/c", "a/" + "x".repeat(129), "a/b.tmp", "../b", "a/.lock"}) {
            assertThatThrownBy(() -> StoreNames.check(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("SERIES/FILE");
        }
        assertThat(StoreNames.checkSeries("x".repeat(128))).hasSize(128);
        assertThatThrownBy(() -> StoreNames.checkSeries("x".repeat(129))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StoreNames.checkSeries("a/b")).isInstanceOf(IllegalArgumentException.class);
    }
}
