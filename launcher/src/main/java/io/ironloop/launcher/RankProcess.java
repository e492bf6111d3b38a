package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One rank's JVM in one attempt: started directly (no shell), output forwarded by two {@link OutputPump}s,
 * exit reported to the supervisor as a {@link SupervisorInput.RankExited}. Signals are real: SIGTERM and
 * SIGKILL through the {@link ProcessHandle} (not {@link Process#destroy()}, which would also close the
 * output pipes and lose what the rank prints while it saves and exits), SIGINT through {@code kill -INT}.
 */
final class RankProcess {
    private static final Duration KILL_COMMAND_TIMEOUT = Duration.ofSeconds(5);

    private final int rank;
    private final Process process;
    private final Thread outPump;
    private final Thread errPump;

    private RankProcess(int rank, Process process, Thread outPump, Thread errPump) {
        this.rank = rank;
        this.process = process;
        this.outPump = outPump;
        this.errPump = errPump;
    }

    /**
     * Starts a rank.
     *
     * @param command the full command line
     * @param environment variables set on top of the launcher's environment (an inherited
     *     {@code IRONLOOP_PARAMS} is removed first, so a nested launch does not leak its parameter file)
     * @param spec output destinations and working directory
     * @param attempt the attempt
     * @param rank the rank
     * @param log the launcher's log
     * @param sink receives the exit
     * @throws IOException if the JVM cannot be started
     */
    static RankProcess start(List<String> command, Map<String, String> environment, LaunchSpec spec, int attempt,
            int rank, LauncherLog log, Consumer<SupervisorInput> sink) throws IOException {
        RankProcess r = start(command, environment, spec.workingDirectory(), ProcessBuilder.Redirect.from(new File("/dev/null")),
                spec.out(), spec.err(), spec.outputListener(), attempt, rank, log);
        long pid = r.pid();
        r.process.onExit().thenAccept(done -> sink.accept(
                new SupervisorInput.RankExited(attempt, rank, pid, done.exitValue(), Instant.now())));
        return r;
    }

    /**
     * Starts a rank JVM and the pumps of its output, nothing more (no supervisor is told of its exit).
     *
     * @param command the full command line
     * @param environment variables set on top of this process's environment (an inherited {@code IRONLOOP_PARAMS}
     *     is removed first)
     * @param workingDirectory the rank's working directory
     * @param input the rank's standard input
     * @param out where its standard output goes, as it is
     * @param err where its standard error goes, each line prefixed with {@code [rank] }
     * @param listener told every line
     * @param attempt the attempt, for the listener
     * @param rank the rank
     * @param log the launcher's log
     * @throws IOException if the JVM cannot be started
     */
    static RankProcess start(List<String> command, Map<String, String> environment, Path workingDirectory,
            ProcessBuilder.Redirect input, java.io.PrintStream out, java.io.PrintStream err, RankOutputListener listener,
            int attempt, int rank, LauncherLog log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectInput(input);
        pb.environment().remove(LaunchEnvironment.PARAMS);
        pb.environment().putAll(environment);
        Process p = pb.start();
        Thread outPump = OutputPump.start(p.getInputStream(), out, attempt, rank, false, listener, log);
        Thread errPump = OutputPump.start(p.getErrorStream(), err, attempt, rank, true, listener, log);
        return new RankProcess(rank, p, outPump, errPump);
    }

    /** The JVM's process (its standard input, its exit). */
    Process process() {
        return process;
    }

    int rank() {
        return rank;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Whether the rank is stopped by job control (SIGSTOP, SIGTSTP): state {@code T} in {@code /proc/PID/stat}.
     * A stopped process runs no code: it cannot save, exit, nor answer SIGTERM, only SIGKILL ends it. False
     * where {@code /proc} is not readable (not Linux), and for a process stopped by a debugger ({@code t}).
     */
    boolean isStopped() {
        return isStopped(pid());
    }

    /** {@link #isStopped()} for any process. */
    static boolean isStopped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // pid (comm) state ...: comm may itself contain ") ", so the state follows the last one
            int end = stat.lastIndexOf(") ");
            return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'T';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Sends SIGTERM. */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Sends SIGKILL to the rank JVM only (fault injection). */
    void kill() {
        process.toHandle().destroyForcibly();
    }

    /** Sends SIGKILL to the rank's descendants, then to the rank. */
    void killTree() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.toHandle().destroyForcibly();
    }

    /**
     * Sends a signal.
     *
     * @param signal INT through {@code kill -INT}, TERM through {@link ProcessHandle#destroy()}
     * @throws IOException if {@code kill} cannot be run or fails
     */
    void signal(LauncherSignal signal) throws IOException {
        if (signal == LauncherSignal.TERM) {
            terminate();
            return;
        }
        signal(signal.name());
    }

    /**
     * Sends a signal with {@code kill -NAME}.
     *
     * @param name the signal's name without {@code SIG}, e.g. {@code STOP}
     * @throws IOException if {@code kill} cannot be run or fails while the rank is alive
     */
    void signal(String name) throws IOException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!kill.waitFor(KILL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IOException("kill -" + name + " " + pid() + " did not finish");
            }
            if (kill.exitValue() != 0 && isAlive()) {
                throw new IOException("kill -" + name + " " + pid() + " exited with " + kill.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill.destroyForcibly();
            throw new IOException("interrupted while sending SIG" + name + " to " + pid(), e);
        }
    }

    /** Waits (bounded) until the rank's output has been forwarded completely. */
    void awaitOutput(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        outPump.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        errPump.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
}
