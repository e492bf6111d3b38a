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
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(spec.workingDirectory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove(LaunchEnvironment.PARAMS);
        pb.environment().putAll(environment);
        Process p = pb.start();
        Thread out = OutputPump.start(p.getInputStream(), spec.out(), attempt, rank, false, spec.outputListener(), log);
        Thread err = OutputPump.start(p.getErrorStream(), spec.err(), attempt, rank, true, spec.outputListener(), log);
        long pid = p.pid();
        p.onExit().thenAccept(done -> sink.accept(
                new SupervisorInput.RankExited(attempt, rank, pid, done.exitValue(), Instant.now())));
        return new RankProcess(rank, p, out, err);
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
        Process kill = new ProcessBuilder("kill", "-" + signal.name(), Long.toString(pid()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!kill.waitFor(KILL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IOException("kill -" + signal.name() + " " + pid() + " did not finish");
            }
            if (kill.exitValue() != 0 && isAlive()) {
                throw new IOException("kill -" + signal.name() + " " + pid() + " exited with " + kill.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill.destroyForcibly();
            throw new IOException("interrupted while sending " + signal.signalName() + " to " + pid(), e);
        }
    }

    /** Waits (bounded) until the rank's output has been forwarded completely. */
    void awaitOutput(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        outPump.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        errPump.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
}
