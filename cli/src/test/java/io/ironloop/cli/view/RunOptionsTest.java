package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code run --dashboard [PORT]} and {@code --metrics-port}: parsed without starting anything (a usage error found
 * before any rank starts shows that the options were understood).
 */
class RunOptionsTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.execute(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void dashboardWithoutPort_beforeOtherOptions_parses() {
        assertThat(run("run", "-n", "2", "--dashboard", "--metrics-port", "0", "--iterations", "5", "--fail", "1@7", "--",
                ViewApp.class.getName())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--fail 1@7 is past the last iteration");
    }

    @Test
    void dashboardWithoutPort_rightBeforeMainClass_parses() {
        assertThat(run("run", "-n", "2", "--iterations", "5", "--fail", "1@7", "--dashboard", ViewApp.class.getName()))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--fail 1@7 is past the last iteration");
    }

    @Test
    void timelineAndDashboard_noTimelineFile_oneLineSayingWhere() {
        assertThat(run("timeline", System.getProperty("java.io.tmpdir"))).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ironloop-timeline.jsonl does not exist", "FT_FOLDER");
        err.reset();
        assertThat(run("dashboard", System.getProperty("java.io.tmpdir"))).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ironloop-timeline.jsonl does not exist");
    }
}
