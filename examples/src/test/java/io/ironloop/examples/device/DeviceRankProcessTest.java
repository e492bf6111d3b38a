package io.ironloop.examples.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.config.Parameters;
import io.ironloop.device.DeviceSet;
import io.ironloop.runtime.RuntimeKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real host processes killed with SIGKILL at seeded-random kernel launches and started again over the same
 * checkpoint folder, each time on another device kind or number of devices (re-executing the setup code); the
 * last one ends with the failure-free result, bit for bit.
 */
class DeviceRankProcessTest {
    private static final Optional<String> OPENCL_MISSING = DeviceSet.openClUnavailableReason();

    @TempDir
    Path dir;

    @Test
    void summa_killedTwice_restartsJavaTwoDevices_openClOne_javaTwo_bitIdentical() throws Exception {
        assumeTrue(OPENCL_MISSING.isEmpty(), () -> "OpenCL part skipped: " + OPENCL_MISSING.orElse(""));
        String reference = DeviceRank.run(DeviceRank.Options.parse(new String[] {"summa", "test", "--devices", "1"}), params(dir.resolve("reference")));
        Random seeded = new Random(42);
        Path folder = dir.resolve("run");
        List<String> restarts = new ArrayList<>();
        int first = 2 + seeded.nextInt(8);
        int second = first + 4 + seeded.nextInt(8);
        assertThat(killedAt(folder, first, restarts, "summa", "test", "--device", "java", "--devices", "2")).isTrue();
        assertThat(killedAt(folder, second, restarts, "summa", "test", "--device", "opencl", "--devices", "1")).isTrue();
        String result = complete(folder, restarts, "summa", "test", "--device", "java", "--devices", "2");
        assertThat(result).isEqualTo(reference);
        assertThat(restarts).hasSize(2);
        assertThat(restarts.get(0)).contains("malleable application", "re-split over 1 opencl device", "checkpointed on 2 java devices");
        assertThat(restarts.get(1)).contains("re-split over 2 java devices", "checkpointed on 1 opencl device");
    }

    @Test
    void shallowWater_killedAtARandomLaunch_restartsOnOneDevice_keepsItsTwoVirtualDevices_bitIdentical() throws Exception {
        String reference = DeviceRank.run(DeviceRank.Options.parse(new String[] {"shallow-water", "test", "--devices", "2"}),
                params(dir.resolve("reference")));
        int at = 8 + new Random(7).nextInt(40);
        Path folder = dir.resolve("run");
        List<String> restarts = new ArrayList<>();
        assertThat(killedAt(folder, at, restarts, "shallow-water", "test", "--device", "java", "--devices", "2")).isTrue();
        String result = complete(folder, restarts, "shallow-water", "test", "--device", "java", "--devices", "1");
        assertThat(result).isEqualTo(reference);
        assertThat(restarts).singleElement().asString().contains("pseudo-malleable", "2 virtual devices mapped onto 1 java device");
    }

    private static Parameters params(Path folder) {
        return Parameters.load(RuntimeKeys.TABLE, null, Map.of("IRONLOOP_FT_FOLDER", folder.toString()), Map.of());
    }

    private static ProcessBuilder program(Path folder, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-D" + DeviceRank.TRACE_PROPERTY + "=true",
                "-cp", System.getProperty("java.class.path"), DeviceRank.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().put("IRONLOOP_FT_FOLDER", folder.toString());
        return b;
    }

    /**
     * Runs the example and SIGKILLs it at the first kernel launch at or after iteration {@code at} by which this
     * attempt has committed a line of its own: the next attempt must restart from this one's devices, and on a
     * loaded machine the background write of the line due before {@code at} may not have finished by then.
     */
    private static boolean killedAt(Path folder, int at, List<String> restarts, String... args) throws Exception {
        Set<Path> before = commits(folder);
        Process p = program(folder, args).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean reached = false;
            while ((line = err.readLine()) != null) {
                if (line.matches("[a-z-]+: restart at iteration .*")) {
                    restarts.add(line);
                }
                reached |= line.equals("iteration " + at);
                if (reached && line.startsWith("iteration ") && !before.containsAll(commits(folder))) {
                    break;
                }
            }
            p.destroyForcibly(); // SIGKILL, whatever the process is doing: a kernel, a snapshot or a background write
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return line != null && p.exitValue() == 137;
        } finally {
            p.destroyForcibly();
        }
    }

    /** The commit records in the folder now (none while the engine renames or deletes under the walk: asked again later). */
    private static Set<Path> commits(Path folder) {
        if (!Files.isDirectory(folder)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".commit")).collect(Collectors.toSet());
        } catch (IOException | UncheckedIOException e) {
            return Set.of();
        }
    }

    private static String complete(Path folder, List<String> restarts, String... args) throws Exception {
        Process p = program(folder, args).start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                if (line.matches("[a-z-]+: restart at iteration .*")) {
                    restarts.add(line);
                }
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(out).startsWith("result sha256=");
            return out.substring("result sha256=".length());
        } finally {
            p.destroyForcibly();
        }
    }
}
