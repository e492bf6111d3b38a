package io.ironloop.group.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a rank JVM of a job on this machine starts: {@code java} directly (no shell), the JVM options,
 * {@code -Dironloop.rank=R -Dironloop.job=ID}, the class path, the main class and its arguments; and the
 * environment that makes it a member of the job's group ({@link LaunchEnvironment#RANK}, {@link LaunchEnvironment#SIZE},
 * {@link LaunchEnvironment#JOB}, {@link LaunchEnvironment#PEERS}, {@link LaunchEnvironment#SECRET_FILE}). The one
 * way the launcher, the benchmarks' rank jobs and the group's process tests start ranks; the launcher adds its
 * own variables (control socket, attempt, spares, …) on top. Immutable.
 *
 * @param java the {@code java} executable
 * @param jvmOptions options before the main class (heap, collector, JIT, system properties)
 * @param classpath the rank class path
 * @param main the main class, then its arguments
 * @param jobId the job id
 * @param size the number of ranks
 * @param peers the {@link LaunchEnvironment#PEERS} value ({@link FreePorts#loopbackPeers})
 * @param secretFile the job secret file
 */
public record RankCommand(Path java, List<String> jvmOptions, String classpath, List<String> main, String jobId, int size,
        String peers, Path secretFile) {

    public RankCommand {
        Objects.requireNonNull(java, "java");
        jvmOptions = List.copyOf(jvmOptions);
        Objects.requireNonNull(classpath, "classpath");
        main = List.copyOf(main);
        if (main.isEmpty()) {
            throw new IllegalArgumentException("main must name the main class");
        }
        Objects.requireNonNull(jobId, "jobId");
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, was " + size);
        }
        Objects.requireNonNull(peers, "peers");
        Objects.requireNonNull(secretFile, "secretFile");
    }

    /**
     * Ranks of {@code main} with this JVM's {@code java} and class path, on fresh loopback ports.
     *
     * @param jvmOptions options before the main class
     * @param ports every rank's group port ({@link FreePorts#allocate}); their number is the job's size
     * @param main the main class, then its arguments
     */
    public static RankCommand thisJvm(List<String> jvmOptions, String jobId, int[] ports, Path secretFile, List<String> main) {
        return new RankCommand(Path.of(System.getProperty("java.home"), "bin", "java"), jvmOptions,
                System.getProperty("java.class.path"), main, jobId, ports.length, FreePorts.loopbackPeers(ports), secretFile);
    }

    /** The command line of rank {@code rank}. */
    public List<String> command(int rank) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(jvmOptions);
        cmd.add("-D" + LaunchEnvironment.RANK_PROPERTY + "=" + rank);
        cmd.add("-D" + LaunchEnvironment.JOB_PROPERTY + "=" + jobId);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.addAll(main);
        return cmd;
    }

    /** The group's variables of rank {@code rank}. */
    public Map<String, String> environment(int rank) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(LaunchEnvironment.RANK, Integer.toString(rank));
        env.put(LaunchEnvironment.SIZE, Integer.toString(size));
        env.put(LaunchEnvironment.JOB, jobId);
        env.put(LaunchEnvironment.PEERS, peers);
        env.put(LaunchEnvironment.SECRET_FILE, secretFile.toString());
        return env;
    }

    /** A process builder for rank {@code rank}: its command line, and its variables over this process's environment. */
    public ProcessBuilder processBuilder(int rank) {
        ProcessBuilder pb = new ProcessBuilder(command(rank));
        pb.environment().putAll(environment(rank));
        return pb;
    }
}
