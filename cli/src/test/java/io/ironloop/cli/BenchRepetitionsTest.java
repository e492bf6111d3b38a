package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Too few repetitions for a median is a one-line usage error (exit 2), not a stack trace, for every bench. */
class BenchRepetitionsTest {
    @ParameterizedTest
    @ValueSource(strings = {"checkpoint", "preempt", "group", "recovery", "devices"})
    void bench_fewerThanFiveRepetitions_isAUsageErrorInOneLine(String bench) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "bench", bench, "--repetitions", "1", "--json");

        String message = err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(message).isEqualTo(Main.USAGE);
        assertThat(message).contains("ironloop bench " + bench + ": --repetitions must be at least 5").doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
