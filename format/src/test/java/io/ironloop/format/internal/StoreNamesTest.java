package io.ironloop.format.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class StoreNamesTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "rank-0.ilc", "job/line-00000042/rank-0003.ilc", "a.b/c..d/...", "ü/名前"})
    void problem_validStoreRelativeName_isNull(String name) {
        assertThat(StoreNames.problem(name)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/etc/passwd", "..", "../x", "a/..", "a/../b", ".", "./a", "a//b", "a/", "a\\b", "C:x", "a\u0000b", "a\nb"})
    void problem_nameLeavingTheStoreOrMalformed_isReported(String name) {
        assertThat(StoreNames.problem(name)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {1024, 1025})
    void problem_longNames_limitedTo1024Characters(int length) {
        assertThat(StoreNames.problem("x".repeat(length)) == null).isEqualTo(length <= 1024);
    }
}
