package io.ironloop.cli.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Finds and kills, by PID, the processes of a test's job (ranks carry {@code -Dironloop.job=ID}). */
final class JobProcesses {
    static final List<String> SMALL_JVM = List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:-UsePerfData");

    private JobProcesses() {
    }

    /** Live processes whose command line carries {@code -Dironloop.job=<jobId>}. */
    static List<ProcessHandle> ranksOf(String jobId) {
        String marker = "-Dironloop.job=" + jobId;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> Arrays.asList(a).contains(marker)).orElse(false))
                .toList();
    }

    /** Kills the job's ranks and their descendants. */
    static void killJob(String jobId) {
        for (ProcessHandle p : ranksOf(jobId)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Kills a process and its descendants. */
    static void killTree(Process p) {
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.toHandle().destroyForcibly();
        }
    }

    /** Whether this JVM ignores SIGINT (inherited from a background job), so children would too. */
    static boolean sigintIgnored() {
        try {
            Optional<String> line = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("SigIgn:")).findFirst();
            return line.isPresent() && (Long.parseLong(line.get().substring(7).strip(), 16) & (1L << 1)) != 0;
        } catch (java.io.IOException | NumberFormatException e) {
            return true;
        }
    }
}
