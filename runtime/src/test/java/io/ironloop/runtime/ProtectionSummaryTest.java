package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up line that says what a rank's parameters protect and what they do not. */
class ProtectionSummaryTest {
    @TempDir
    Path dir;

    private Parameters load(String json) throws Exception {
        Path file = Files.writeString(dir.resolve("params.json"), json);
        return Parameters.load(RuntimeKeys.TABLE, file, Map.of(), Map.of());
    }

    @Test
    void of_defaults_signalsSaveAndTheGapsAreNamed() throws Exception {
        String line = ProtectionSummary.of(load("{}"));
        assertThat(line).doesNotContain("\n").startsWith("protected: global state at every saveGlobal() call, "
                + "local + global state on SIGINT/SIGTERM (saved within 25 s, then exit 128+signal); not protected: ");
        assertThat(line.substring(line.indexOf("not protected:"))).contains("SIGUSR1 (Slurm --signal=USR1@T",
                "saves on a rank failure (no TRIGGER_HEARTBEAT_MONITORING)", "cloud preemption notices (PREEMPTION_NOTICE=NONE)",
                "local state between triggers (CHECKPOINTING_TIME_LOCAL off)", "no SHARED_FOLDER or S3_URI copy", "SIGKILL");
    }

    @Test
    void of_deliaFileWithSignalsOff_saysSigtermSavesNothingAndNamesTheFile() throws Exception {
        String line = ProtectionSummary.of(load("""
                {"TRIGGER_SIGNAL": false, "CHECKPOINTING_GLOBAL_ITERATION": 5, "CHECKPOINTING_TIME_GLOBAL": 30,
                 "TRIGGER_HEARTBEAT_MONITORING": {"TIME_MAX_WAIT": 3, "SLEEP_THREAD_TIME": 1, "TYPE": "RING"}}
                """));
        String on = line.substring(0, line.indexOf("; not protected:"));
        String off = line.substring(line.indexOf("; not protected:"));
        assertThat(on).contains("global state at once every 5 saveGlobal() calls and at most every 30 s",
                "local state on a detected rank failure (RING heartbeat, suspicion after 3 s").doesNotContain("SIGTERM");
        assertThat(off).contains("termination signals (TRIGGER_SIGNAL=false in ", "params.json",
                ": SIGTERM ends a rank without saving)").doesNotContain("SIGUSR1");
    }

    @Test
    void of_slurmAndCloud_usr1AndNoticesProtected() throws Exception {
        String line = ProtectionSummary.of(load("""
                {"TRIGGER_SIGNALS": "TERM,USR1", "TRIGGER_SIGNAL_DEADLINE": "500ms", "PREEMPTION_NOTICE": "AWS",
                 "CHECKPOINTING_TIME_LOCAL": 60, "CHECKPOINTING_GLOBAL_ITERATION": 1, "S3_URI": "s3://bucket/run"}
                """));
        assertThat(line).contains("global state at every saveGlobal() call", "local + global state on SIGTERM/SIGUSR1 (saved within 500 ms", "local state on a preemption notice (AWS)")
                .contains("copies of every line in s3://bucket/run")
                .doesNotContain("PREEMPTION_NOTICE=NONE", "CHECKPOINTING_TIME_LOCAL off", "SIGUSR1 (Slurm", "no SHARED_FOLDER");
    }
}
