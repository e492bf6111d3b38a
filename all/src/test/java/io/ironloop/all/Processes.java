package io.ironloop.all;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts the commands these tests run (Maven, java, bash) with their output in files, and cleans up by PID. */
final class Processes {
    /** Small, quick-starting rank JVMs: several share two cores with other builds. */
    static final String SMALL_JVM = "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    private Processes() {
    }

    /** What a finished command left: its status and its two output files. */
    record Result(int status, Path out, Path err) {
        String stdout() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8);
        }

        String stderr() throws IOException {
            return Files.readString(err, StandardCharsets.UTF_8);
        }

        /** For assertion messages: the command's standard error. */
        String describe() {
            try {
                return "status " + status + "\n--- stdout\n" + stdout() + "\n--- stderr\n" + stderr();
            } catch (IOException e) {
                return "status " + status + " (output unreadable: " + e + ")";
            }
        }
    }

    /** Starts {@code command} in {@code dir} with extra environment, output to {@code name}.out / .err in {@code dir}. */
    static Process start(List<String> command, Path dir, Map<String, String> env, String name) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Runs {@code command} to its end, killing it and its descendants after {@code limit}. */
    static Result run(List<String> command, Path dir, Map<String, String> env, String name, Duration limit) throws Exception {
        Process p = start(command, dir, env, name);
        return await(p, dir, name, limit);
    }

    /** Waits for a process {@link #start} started. */
    static Result await(Process p, Path dir, String name, Duration limit) throws Exception {
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(p.toHandle());
                Result r = new Result(-1, dir.resolve(name + ".out"), dir.resolve(name + ".err"));
                throw new AssertionError(name + " did not finish within " + limit + ": " + r.describe());
            }
            return new Result(p.exitValue(), dir.resolve(name + ".out"), dir.resolve(name + ".err"));
        } finally {
            killTree(p.toHandle());
        }
    }

    /** Kills a process and every process it started, by PID. */
    static void killTree(ProcessHandle p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /** Kills every live JVM whose command line carries {@code marker} (e.g. a job's {@code -Dironloop.job=ID}). */
    static void killMarked(String marker) {
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .forEach(Processes::killTree);
    }

    /** Sends {@code signal} (e.g. {@code USR1}) to a process with the system's kill command. */
    static void signal(long pid, String signal) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " failed");
        }
    }

    /** This JVM's java launcher, for the processes the tests start. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
