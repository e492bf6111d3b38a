package io.ironloop.launcher;

import io.ironloop.group.launch.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Finds and kills, by PID, the processes of a test's job (ranks carry {@code -Dironloop.job=ID}). */
public final class JobProcesses {
    /**
     * Options of a small JVM a test starts (a rank, a launcher). A launcher started with them chooses its ranks' ports
     * in the same slice as this test JVM ({@link FreePorts#SLICE_PROPERTY}, set per parallel test JVM by the build).
     */
    public static final List<String> SMALL_JVM = smallJvm();

    private static List<String> smallJvm() {
        List<String> options = new java.util.ArrayList<>(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"));
        String slice = System.getProperty(FreePorts.SLICE_PROPERTY);
        if (slice != null) {
            options.add("-D" + FreePorts.SLICE_PROPERTY + "=" + slice);
        }
        return List.copyOf(options);
    }

    private JobProcesses() {
    }

    /** Live processes whose command line carries {@code -Dironloop.job=<jobId>}. */
    public static List<ProcessHandle> ranksOf(String jobId) {
        String marker = "-Dironloop.job=" + jobId;
        return ProcessHandle.allProcesses().filter(p -> arguments(p).contains(marker)).toList();
    }

    /**
     * The process's command-line arguments, from {@code /proc/PID/cmdline}: the JDK's {@code ProcessHandle.Info.arguments()}
     * is empty for a command line longer than it reads (a rank's class path of about a hundred jars is).
     */
    public static List<String> arguments(ProcessHandle p) {
        try {
            byte[] raw = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(p.pid()), "cmdline"));
            return Arrays.asList(new String(raw, java.nio.charset.StandardCharsets.UTF_8).split("\0"));
        } catch (java.io.IOException | RuntimeException e) {
            return p.info().arguments().map(Arrays::asList).orElse(List.of()); // gone, or not Linux
        }
    }

    /** Kills the job's ranks and their descendants. */
    public static void killJob(String jobId) {
        for (ProcessHandle p : ranksOf(jobId)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Kills a process and its descendants. */
    public static void killTree(Process p) {
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.toHandle().destroyForcibly();
        }
    }

    /** The live rank of a job with this rank number, by its {@code -Dironloop.rank=R}. */
    public static Optional<ProcessHandle> rankOf(String jobId, int rank) {
        String marker = "-Dironloop.rank=" + rank;
        return ranksOf(jobId).stream()
                .filter(p -> arguments(p).contains(marker)).findFirst();
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}, ...) to a process with {@code kill}, as an operator would. */
    public static void signal(long pid, String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name + " to " + pid, e);
        }
    }

    /** Whether a process is stopped (SIGSTOP): the launcher's own check. */
    public static boolean isStopped(long pid) {
        return RankProcess.isStopped(pid);
    }

    /** Whether this JVM ignores SIGINT (inherited from a background job), so children would too. */
    public static boolean sigintIgnored() {
        try {
            Optional<String> line = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("SigIgn:")).findFirst();
            return line.isPresent() && (Long.parseLong(line.get().substring(7).strip(), 16) & (1L << 1)) != 0;
        } catch (java.io.IOException | NumberFormatException e) {
            return true;
        }
    }
}
