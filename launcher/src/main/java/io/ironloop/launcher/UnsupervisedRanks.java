package io.ironloop.launcher;

import io.ironloop.group.launch.FreePorts;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.RankCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * N rank JVMs on loopback started as the launcher starts them, without its supervisor: directly (no shell) with the
 * group's environment contract ({@code IRONLOOP_RANK/SIZE/JOB/PEERS/SECRET_FILE}) and {@code -Dironloop.rank=R
 * -Dironloop.job=ID} on their command lines, a job secret from the launcher's secret store, output through the
 * launcher's pumps, and every rank registered with its reaper, so that none outlives this JVM even when it is killed
 * with SIGKILL. Nobody serves a control connection, restarts, stops or kills a rank but the caller.
 *
 * <p>For benchmarks and tests that time what happens inside the ranks after a fault they inject themselves, at a
 * moment of their choosing: the supervisor would make the fault its own business (it kills a rank stopped with
 * SIGSTOP, which must stay a hang for a failure detector to find; it stops the survivors of a failure). Use
 * {@link Launcher} for everything else.
 *
 * <p>Ranks get a pipe as standard input, closed by {@link #close()}: a rank program may halt when it reads its end.
 * Thread-safe for the queries and signals; {@link #close()} once.
 */
public final class UnsupervisedRanks implements AutoCloseable {
    private static final long EXIT_WAIT_SECONDS = 10;

    private final List<RankProcess> ranks = new ArrayList<>();
    private final LauncherSecrets secrets;
    private final JobSecret secret;
    private final RankReaper reaper;

    private UnsupervisedRanks(LauncherSecrets secrets, JobSecret secret, RankReaper reaper) {
        this.secrets = secrets;
        this.secret = secret;
        this.reaper = reaper;
    }

    /**
     * Starts the ranks.
     *
     * @param n how many, at least 1
     * @param jobId the job id (the group's cluster name; the reaper recognises the ranks by it)
     * @param jvmOptions options of every rank JVM, before the main class
     * @param mainClass the rank program, on this JVM's class path
     * @param arguments its arguments
     * @param workingDirectory the ranks' working directory
     * @param err where the ranks' standard error goes, each line prefixed with {@code [rank] }, and the launcher's
     *     warnings
     * @param listener told every line of every rank (standard output is not printed anywhere else)
     * @return the running ranks
     * @throws IOException if a JVM cannot be started (those started are killed)
     * @throws LaunchException if the job secret cannot be created
     */
    public static UnsupervisedRanks start(int n, String jobId, List<String> jvmOptions, String mainClass, List<String> arguments,
            Path workingDirectory, PrintStream err, RankOutputListener listener) throws IOException {
        if (n < 1) {
            throw new IllegalArgumentException("at least one rank: " + n);
        }
        Objects.requireNonNull(listener, "listener");
        LauncherLog log = new LauncherLog(err);
        LauncherSecrets secrets = new LauncherSecrets(LauncherSecrets.defaultDirectory(), log);
        secrets.sweep();
        JobSecret secret = secrets.create(jobId);
        UnsupervisedRanks job = new UnsupervisedRanks(secrets, secret, RankReaper.start(jobId, log));
        try {
            List<String> main = new ArrayList<>();
            main.add(mainClass);
            main.addAll(arguments);
            RankCommand command = RankCommand.thisJvm(jvmOptions, jobId, FreePorts.allocate(n), secret.file(), main);
            PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
            for (int r = 0; r < n; r++) {
                RankProcess p = RankProcess.start(command.command(r), command.environment(r), workingDirectory,
                        ProcessBuilder.Redirect.PIPE, discard, err, listener, 0, r, log);
                job.reaper.watch(p.pid());
                synchronized (job.ranks) {
                    job.ranks.add(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            job.close();
            throw e;
        }
        return job;
    }

    private RankProcess rank(int rank) {
        synchronized (ranks) {
            return ranks.get(rank);
        }
    }

    /** How many ranks were started. */
    public int size() {
        synchronized (ranks) {
            return ranks.size();
        }
    }

    /** The process id of rank {@code rank}'s JVM. */
    public long pid(int rank) {
        return rank(rank).pid();
    }

    /** Whether rank {@code rank}'s JVM still runs. */
    public boolean isAlive(int rank) {
        return rank(rank).isAlive();
    }

    /** Rank {@code rank}'s exit status, once it exited. */
    public OptionalInt exitStatus(int rank) {
        Process p = rank(rank).process();
        return p.isAlive() ? OptionalInt.empty() : OptionalInt.of(p.exitValue());
    }

    /** Whether rank {@code rank} is stopped by job control (SIGSTOP): it runs no code until SIGCONT or SIGKILL. */
    public boolean isStopped(int rank) {
        return rank(rank).isStopped();
    }

    /** Sends SIGKILL to rank {@code rank}'s JVM (a crash, as {@code --fail} injects it). */
    public void kill(int rank) {
        rank(rank).kill();
    }

    /**
     * Sends a signal with {@code kill(1)}.
     *
     * @param rank the rank
     * @param name the signal's name without {@code SIG}, e.g. {@code STOP}, {@code TERM}
     * @throws IOException if {@code kill} cannot be run or fails while the rank is alive
     */
    public void signal(int rank, String name) throws IOException {
        rank(rank).signal(name);
    }

    /**
     * Ends the job: closes the ranks' standard input, sends SIGKILL to every rank still alive (a stopped one too) and
     * its descendants, waits for them (10 s at most each), stops the reaper and deletes the job secret.
     */
    @Override
    public void close() {
        List<RankProcess> all;
        synchronized (ranks) {
            all = List.copyOf(ranks);
        }
        for (RankProcess p : all) {
            try {
                p.process().getOutputStream().close();
            } catch (IOException e) {
                // the rank is gone already
            }
            p.killTree();
        }
        for (RankProcess p : all) {
            try {
                p.process().waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        reaper.close();
        secrets.delete(secret.file());
    }
}
