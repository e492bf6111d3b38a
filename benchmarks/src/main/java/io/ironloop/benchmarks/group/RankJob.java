package io.ironloop.benchmarks.group;

import io.ironloop.launcher.UnsupervisedRanks;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * N rank JVMs of a benchmark on loopback ({@link BenchRank}, or another rank program that joins the group from the
 * launcher's environment), started by the launcher's {@link UnsupervisedRanks} — as the launcher starts ranks, with its
 * secret store and reaper, but without its supervisor, since these benchmarks inject their faults themselves and time
 * the ranks' own reaction. Adds what the benchmarks read: each rank's standard output line by line (its standard error
 * goes to {@code logs/JOB.log}), waits for lines, and the faults.
 */
public final class RankJob implements AutoCloseable {
    private final UnsupervisedRanks ranks;
    private final List<List<String>> lines = new ArrayList<>();
    private final Set<Integer> failedOnPurpose = ConcurrentHashMap.newKeySet();
    private final PrintStream log;

    /**
     * @param n ranks
     * @param job the job id (also the JGroups cluster name)
     * @param logs directory for the ranks' standard error
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
        for (int r = 0; r < n; r++) {
            lines.add(new CopyOnWriteArrayList<>());
        }
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-Djava.net.preferIPv4Stack=true");
        log = new PrintStream(logs.resolve(job + ".log").toFile(), StandardCharsets.UTF_8);
        try {
            ranks = UnsupervisedRanks.start(n, job, options, main.getName(), args, logs, log, (attempt, rank, stderr, line) -> {
                if (!stderr) {
                    lines.get(rank).add(line);
                }
            });
        } catch (IOException | RuntimeException e) {
            log.close();
            throw e;
        }
    }

    public int size() {
        return ranks.size();
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
        return ranks.pid(rank);
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
            for (int r = 0; r < ranks.size(); r++) {
                int status = ranks.exitStatus(r).orElse(0);
                if (!failedOnPurpose.contains(r) && status != 0 && !done.getAsBoolean()) {
                    throw new IOException("rank " + r + " exited with status " + status + " while waiting for " + what
                            + "; its output: " + lines.get(r));
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("ranks did not report " + what + " within " + atMost.toSeconds() + " s: " + lines);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** Sends SIGKILL to rank {@code rank}. */
    public void kill(int rank) {
        failedOnPurpose.add(rank);
        ranks.kill(rank);
    }

    /** Sends a signal by name (e.g. STOP) to rank {@code rank}. */
    public void signal(int rank, String signal) throws IOException {
        failedOnPurpose.add(rank);
        ranks.signal(rank, signal);
    }

    /** Kills the ranks (the stopped ones too) and closes the log. */
    @Override
    public void close() {
        try {
            ranks.close();
        } finally {
            log.close();
        }
    }
}
