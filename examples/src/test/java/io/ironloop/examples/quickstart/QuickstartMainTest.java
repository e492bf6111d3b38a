package io.ironloop.examples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Quickstart#main}, the single-process reference of the quick-start program, run as a program. */
class QuickstartMainTest {
    @Test
    void main_threeRanks_printsTheReferenceResultLineOnStandardOutputOnly() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Quickstart.class.getName(), "3", "16", "7")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(stdout).isEqualTo(Quickstart.simulate(3, 16, 7) + System.lineSeparator());
    }
}
