package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link ProgressBar}: what reaches a terminal, and that nothing reaches anything else. */
class ProgressBarTest {
    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

    private String drawn() {
        return terminal.toString(StandardCharsets.UTF_8);
    }

    @Test
    void steps_drawTheBarAndTheCount_closeClearsTheLine() {
        ProgressBar bar = ProgressBar.on(new PrintStream(terminal, true, StandardCharsets.UTF_8), "bench", 4);
        bar.step();
        assertThat(drawn()).startsWith("\r\033[K").contains("bench [########......................]  25% 1/4");
        bar.done(4);
        assertThat(drawn()).contains("bench [##############################] 100% 4/4");
        bar.close();
        assertThat(drawn()).endsWith("\r\033[K").doesNotContain("\n");
    }

    @Test
    void linesPrintedMeanwhile_clearTheBarFirstAndRedrawItAfter() {
        PrintStream raw = new PrintStream(terminal, true, StandardCharsets.UTF_8);
        ProgressBar bar = ProgressBar.on(raw, "demo", 10);
        bar.done(3);
        bar.lines(raw).println("rank 1 exited");
        String s = drawn();
        int line = s.indexOf("rank 1 exited\n");
        assertThat(s.lastIndexOf("\r\033[K", line)).as("cleared right before the line").isEqualTo(line - 4);
        assertThat(s.substring(line)).contains("demo [#########.....................]  30% 3/10");
    }

    @Test
    void unknownTotal_countsWithoutABar() {
        ProgressBar bar = ProgressBar.on(new PrintStream(terminal, true, StandardCharsets.UTF_8), "verify", 0);
        bar.done(7);
        assertThat(bar.line()).startsWith("verify 7  ");
    }

    @Test
    void start_stderrNotATerminal_drawsNothingAndPassesLinesThrough() {
        String before = System.getProperty("ironloop.stderr.tty");
        System.setProperty("ironloop.stderr.tty", "false");
        try (ProgressBar bar = ProgressBar.start("bench", 5)) {
            assertThat(bar.shown()).isFalse();
            PrintStream err = new PrintStream(terminal, true, StandardCharsets.UTF_8);
            assertThat(bar.lines(err)).isSameAs(err);
            bar.step();
        } finally {
            if (before == null) {
                System.clearProperty("ironloop.stderr.tty");
            } else {
                System.setProperty("ironloop.stderr.tty", before);
            }
        }
        assertThat(drawn()).isEmpty();
    }
}
