package io.ironloop.cli.launch;

import io.ironloop.launcher.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.Main;
import io.ironloop.examples.quickstart.Quickstart;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quickstart command, taken from the README and run as written (its parameter file resolved
 * against the repository's root, as a user in the root would), in a launcher JVM of its own.
 */
class ReadmeQuickstartTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final String jobId = "readme-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        JobProcesses.killJob(jobId);
    }

    /** The README's indented {@code bin/ironloop run … QuickstartRank} line, split into arguments after {@code bin/ironloop}. */
    private static List<String> readmeCommand() throws Exception {
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md")).stream().map(String::strip)
                .filter(l -> l.startsWith("bin/ironloop run ") && l.endsWith("QuickstartRank")).toList();
        assertThat(lines).as("the README's quickstart command").hasSize(1);
        List<String> args = new ArrayList<>(Arrays.asList(lines.get(0).split("\\s+")));
        return args.subList(1, args.size());
    }

    @Test
    void readmeQuickstartCommand_paramsFileExists_recoversAndPrintsOnlyTheFailureFreeResult() throws Exception {
        List<String> args = new ArrayList<>(readmeCommand());
        int p = args.indexOf("--params");
        assertThat(p).as("the command names a parameter file").isPositive();
        Path params = ROOT.resolve(args.get(p + 1));
        assertThat(params).as("the README's parameter file ships with the repository").isRegularFile();
        args.set(p + 1, params.toString());
        args.addAll(1, List.of("--job", jobId));
        JobProcesses.SMALL_JVM.forEach(o -> args.add(1, "--jvm-opt=" + o));

        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JobProcesses.SMALL_JVM);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("IRONLOOP_"));
        Process launcher = pb.start();
        try {
            assertThat(launcher.waitFor(240, TimeUnit.SECONDS)).as("launcher exited").isTrue();
        } finally {
            JobProcesses.killTree(launcher);
        }
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);

        assertThat(launcher.exitValue()).as(err).isZero();
        assertThat(err).contains("injecting --fail 1@7");
        assertThat(out.lines()).as("standard output is the result, nothing else")
                .containsExactly(Quickstart.simulate(4, Quickstart.DEFAULT_DATA_SIZE, Quickstart.DEFAULT_ITERATIONS));
        assertThat(dir.resolve("delia-checkpoints")).as("FT_FOLDER of examples/delia_param.json").isDirectory();
    }
}
