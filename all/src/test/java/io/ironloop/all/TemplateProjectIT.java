package io.ironloop.all;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own project: the template ({@code template/}) built against the installed artifacts and run with
 * the single jar's {@code ironloop run --cp app.jar} (the command {@code bin/ironloop} runs) with a real fault.
 */
class TemplateProjectIT {
    private static final int RANKS = 2;
    private static final int CELLS = 300;
    private static final int STEPS = 12;

    private final String job = "template-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        Processes.killMarked("-Dironloop.job=" + job);
    }

    @Test
    void templateApp_builtAgainstInstalledArtifacts_rankKilledUnderRun_resumesWithTheFailureFreeResult() throws Exception {
        Path app = TemplateBuild.appJar();
        Files.copy(TemplateBuild.ROOT.resolve("template/ironloop.json"), dir.resolve("ironloop.json"));
        List<String> command = new ArrayList<>(List.of(Processes.java(), "-Xmx128m", "-XX:+UseSerialGC", "-jar",
                TemplateBuild.ALL_JAR.toString(), "run", "-n", Integer.toString(RANKS), "--restarts", "2", "--backoff", "100ms",
                "--params", "ironloop.json", "--cp", app.toString(), "--fail", "1@5", "--job", job));
        for (String option : Processes.SMALL_JVM.split(" ")) {
            command.add("--jvm-opt=" + option);
        }
        command.addAll(List.of("com.example.MyLoop", Integer.toString(CELLS), Integer.toString(STEPS), "150"));
        Processes.Result r = Processes.run(command, dir, Map.of(), "run", Duration.ofMinutes(3));

        assertThat(r.status()).as(r.describe()).isZero();
        assertThat(r.stdout().strip().lines().reduce((a, b) -> b).orElse("")).as(r.describe())
                .isEqualTo(TemplateBuild.expectedResult(RANKS, CELLS, STEPS));
        String err = r.stderr();
        assertThat(err).as("the fault fired and the job was relaunched: %s", err).contains("SIGKILL to rank 1", "restart 1 of 2");
        assertThat(err).as("the relaunch resumed from a checkpoint").containsPattern("global state restored at iteration [1-9]");
        assertThat(err).as("every rank logs what is protected").contains("protected: global state at every saveGlobal() call, "
                + "local + global state on SIGINT/SIGTERM/SIGUSR1");
    }
}
