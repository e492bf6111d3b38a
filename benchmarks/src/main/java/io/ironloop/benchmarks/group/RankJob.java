package io.ironloop.benchmarks.group;

import io.ironloop.group.launch.FreePorts;
import io.ironloop.group.launch.RankCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * N {@link BenchRank} JVMs on loopback, started directly (no shell) with the launcher's environment
 * contract ({@code IRONLOOP_RANK/SIZE/JOB/PEERS/SECRET_FILE}) and {@code -Dironloop.rank=R
 * -Dironloop.job=ID} on their command lines. Their standard output is collected line by line, their
 * standard error goes to a log file per rank. They are killed by PID on {@link #close()} and halt by
 * themselves when this JVM dies (their standard input closes).
 */
public final class RankJob implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<List<String>> lines = new ArrayList<>();
    private final Set<Integer> failedOnPurpose = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Thread reaper;

    /**
     * @param n ranks
     * @param job the job id (also the JGroups cluster name)
     * @param logs directory for the ranks' standard error and the secret file
     * @param heap the ranks' maximum heap, e.g. {@code 256m}
     * @param fullJit whether the ranks compile with C2 (throughput) rather than only C1 (fast start-up)
     * @param args arguments of {@link BenchRank}
     */
    RankJob(int n, String job, Path logs, String heap, boolean fullJit, List<String> args) throws IOException {
        this(n, job, logs, jvmOptions(heap, fullJit), BenchRank.class, args);
    }

    private static List<String> jvmOptions(String heap, boolean fullJit) {
        List<String> o = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+UseSerialGC", "-Xshare:auto"));
        if (!fullJit) {
            o.add("-XX:TieredStopAtLevel=1");
        }
        return o;
    }

    /**
     * N JVMs running {@code main} (any rank program of the benchmarks that joins the group from the launcher's
     * environment and halts when its standard input closes).
     *
     * @param jvmOptions options before the main class (heap, collector, JIT)
     */
    public RankJob(int n, String job, Path logs, List<String> jvmOptions, Class<?> main, List<String> args) throws IOException {
        Path secret = logs.resolve(job + ".secret");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.writeString(secret, HexFormat.of().formatHex(key));
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-Djava.net.preferIPv4Stack=true");
        List<String> mainAndArgs = new ArrayList<>(List.of(main.getName()));
        mainAndArgs.addAll(args);
        RankCommand ranks = RankCommand.thisJvm(options, job, FreePorts.allocate(n), secret, mainAndArgs);
        reaper = new Thread(this::destroyAll, "bench-group-reaper-" + job);
        Runtime.getRuntime().addShutdownHook(reaper);
        for (int r = 0; r < n; r++) {
            ProcessBuilder pb = ranks.processBuilder(r);
            pb.redirectError(logs.resolve(job + "-rank" + r + ".log").toFile());
            Process p = pb.start();
            processes.add(p);
            List<String> out = new CopyOnWriteArrayList<>();
            lines.add(out);
            Thread t = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l = in.readLine(); l != null; l = in.readLine()) {
                        out.add(l);
                    }
                } catch (IOException e) {
                    out.add("IOERROR " + e);
                }
            }, "bench-group-stdout-" + job + "-" + r);
            t.setDaemon(true);
            t.start();
        }
    }

    public int size() {
        return processes.size();
    }

    /** The first line rank {@code rank} printed that starts with {@code prefix}. */
    public Optional<String> line(int rank, String prefix) {
        return lines.get(rank).stream().filter(l -> l.startsWith(prefix)).findFirst();
    }

    /** Every line rank {@code rank} printed that starts with {@code prefix}, in order. */
    public List<String> lines(int rank, String prefix) {
        return lines.get(rank).stream().filter(l -> l.startsWith(prefix)).toList();
    }

    /** The process id of rank {@code rank}'s JVM. */
    public long pid(int rank) {
        return processes.get(rank).pid();
    }

    /** Whether every rank except {@code except} printed a line starting with {@code prefix}. */
    public boolean all(String prefix, int except) {
        for (int r = 0; r < lines.size(); r++) {
            if (r != except && line(r, prefix).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until {@code done} holds.
     *
     * @throws IOException if it does not within {@code atMost}, or a rank exits first
     */
    public void await(Duration atMost, BooleanSupplier done, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!done.getAsBoolean()) {
            for (int r = 0; r < processes.size(); r++) {
                Process p = processes.get(r);
                if (!failedOnPurpose.contains(r) && !p.isAlive() && p.exitValue() != 0 && !done.getAsBoolean()) {
                    throw new IOException("rank " + r + " exited with status " + p.exitValue() + " while waiting for " + what
                            + "; its log: " + lines.get(r));
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("ranks did not report " + what + " within " + atMost.toSeconds() + " s: " + lines);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** Sends SIGKILL to rank {@code rank} (kill(2) through {@link ProcessHandle#destroyForcibly()}). */
    public void kill(int rank) {
        failedOnPurpose.add(rank);
        processes.get(rank).toHandle().destroyForcibly();
    }

    /** Sends a signal by name (e.g. STOP) to rank {@code rank} with kill(1). */
    public void signal(int rank, String signal) throws IOException, InterruptedException {
        failedOnPurpose.add(rank);
        Process k = new ProcessBuilder("kill", "-" + signal, String.valueOf(processes.get(rank).pid())).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new IOException("kill -" + signal + " " + processes.get(rank).pid() + " failed");
        }
    }

    private void destroyAll() {
        for (Process p : processes) {
            p.toHandle().destroyForcibly(); // SIGKILL ends stopped processes too
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }
}
