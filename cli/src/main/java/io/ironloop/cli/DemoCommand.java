package io.ironloop.cli;

import io.ironloop.examples.heat.HeatDiffusion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ironloop demo}: a child JVM runs a checkpointed computation and is killed with SIGKILL mid-run;
 * a new child resumes from the newest complete line and finishes; its result is compared, bit for bit,
 * with a separate run that was never interrupted. Exit 0 only when they are identical.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Kill a checkpointing computation with kill -9 mid-run, resume it, and compare its result bit for bit with an"
            + " uninterrupted run.", "The last two output lines are the result and the verdict."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--cells", defaultValue = "2097152", description = "Cells of the 1-D heat field. Default ${DEFAULT-VALUE}.")
    int cells;

    @Option(names = "--steps", defaultValue = "300", description = "Time steps. Default ${DEFAULT-VALUE}.")
    int steps;

    @Option(names = "--every", defaultValue = "20", description = "Checkpoint every N steps. Default ${DEFAULT-VALUE}.")
    int every;

    @Option(names = "--kill-at", defaultValue = "-1", description = "Send SIGKILL when the run reaches this step (default: just past the middle).")
    int killAt;

    @Option(names = "--dir", description = "Checkpoint folder for the interrupted run; must be empty or absent (default: temporary).")
    Path dir;

    private final Instant start = Instant.now();
    private final List<String> timeline = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (cells < 3 || steps < 2 || every < 1) {
            System.err.println("ironloop demo: need --cells >= 3, --steps >= 2 and --every >= 1");
            return 2;
        }
        int kill = killAt > 0 ? killAt : steps / 2 + every / 2 + 1;
        if (kill >= steps) {
            System.err.println("ironloop demo: --kill-at " + kill + " must be below --steps " + steps);
            return 2;
        }
        Path folder = dir != null ? dir : Files.createTempDirectory("ironloop-demo");
        if (dir != null && Files.exists(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    System.err.println("ironloop demo: " + dir + " is not empty; the demo never deletes checkpoints: give an empty or new folder");
                    return 2;
                }
            }
        }
        Path reference = Files.createTempDirectory("ironloop-demo-reference");
        try {
            System.err.printf("demo: %d cells, %d steps, checkpoint every %d steps, kill -9 at step %d, folder %s%n", cells, steps,
                    every, kill, folder);
            String first = runChild(folder, "attempt 1", kill);
            if (first != null) {
                System.err.println("demo: the first attempt finished before it could be killed; lower --kill-at");
                return 1;
            }
            String result = runChild(folder, "attempt 2", -1);
            String expected = runChild(reference, "reference", -1);
            System.err.println("timeline:");
            timeline.forEach(line -> System.err.println("  " + line));
            boolean same = result != null && result.equals(expected);
            System.out.println("result sha256=" + result);
            System.out.println("bit-identical to failure-free run: " + (same ? "yes" : "no") + " (reference sha256=" + expected + ")");
            return same ? 0 : 1;
        } finally {
            deleteTree(reference);
            if (dir == null) {
                deleteTree(folder);
            }
        }
    }

    /** Runs one child to completion, or kills it with SIGKILL at step {@code killAt}; returns its sha256 or null. */
    private String runChild(Path folder, String label, int killAt) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-XX:+UseParallelGC",
                "-cp", System.getProperty("java.class.path"), HeatDiffusion.class.getName(), folder.toString(),
                Integer.toString(cells), Integer.toString(steps), Integer.toString(every))
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        event(p.pid(), label + ": started");
        AtomicReference<String> result = new AtomicReference<>();
        Thread stdout = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith("result sha256=")) {
                        result.set(line.substring("result sha256=".length()));
                    }
                }
            } catch (IOException e) {
                // the child is gone; its result is whatever it printed
            }
        });
        stdout.start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = err.readLine()) != null; ) {
                if (line.startsWith("checkpointed") || line.startsWith("resumed")) {
                    event(p.pid(), label + ": " + line);
                } else if (line.startsWith("step ")) {
                    int step = Integer.parseInt(line.substring(5));
                    if (step % Math.max(1, steps / 10) == 0) {
                        System.err.printf("demo: %s at step %d of %d%n", label, step, steps);
                    }
                    if (step == killAt) {
                        p.toHandle().destroyForcibly();
                        event(p.pid(), label + ": sent SIGKILL at step " + step);
                    }
                } else {
                    System.err.println("  [" + label + "] " + line);
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            stdout.join();
        }
        int status = p.exitValue();
        event(p.pid(), label + ": exited with status " + status + (status == 137 ? " (killed by SIGKILL)" : ""));
        return status == 0 ? result.get() : null;
    }

    private void event(long pid, String what) {
        timeline.add(String.format("%8.3fs  pid %-8d %s", Duration.between(start, Instant.now()).toMillis() / 1000.0, pid, what));
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
