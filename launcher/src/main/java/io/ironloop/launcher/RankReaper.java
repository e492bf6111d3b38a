package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Makes the kernel enforce that no rank JVM outlives the launcher, however the launcher ends — even by
 * SIGKILL, and even for a rank that is stopped (SIGSTOP), whose own watchdog cannot run.
 *
 * <p>A tiny separate process ({@code sh}, ignoring SIGINT, SIGTERM and SIGHUP) reads the pid of every rank
 * the launcher starts on its standard input: a pipe whose write end only the launcher holds (rank JVMs
 * inherit no descriptor but their standard streams). When the launcher process ends, the kernel closes that
 * end; the reaper reads end-of-file and sends SIGKILL to each listed process that is still a rank of this
 * job: its command line carries {@code -Dironloop.job=<job>}, so a pid reused by an unrelated process is
 * left alone. After a normal end the ranks are already gone and it exits without killing anything.
 *
 * <p>Limits: the reaper itself can be killed (SIGKILL to it, or to the whole process group, which takes the
 * ranks with it); where {@code sh} cannot be started it is absent, a warning says so, and ranks rely on their
 * own watchdog, which halts a running rank when the control connection drops. Not thread-safe: used by the
 * supervisor thread.
 */
final class RankReaper implements AutoCloseable {
    /** Argument 1: the job id. Reads pids until end-of-file, then kills those still running as this job's ranks. */
    static final String SCRIPT = "trap '' INT TERM HUP\n"
            + "m=\"-D" + LaunchEnvironment.JOB_PROPERTY + "=$1\"\n"
            + "pids=\n"
            + "while read -r p; do pids=\"$pids $p\"; done\n"
            + "for p in $pids; do\n"
            + "  if [ -r \"/proc/$p/cmdline\" ]; then cmd=\" $(tr '\\000' ' ' < \"/proc/$p/cmdline\" 2>/dev/null) \";\n"
            + "  else cmd=\" $(ps -o args= -p \"$p\" 2>/dev/null) \"; fi\n"
            + "  case \"$cmd\" in *\" $m \"*) kill -KILL \"$p\" 2>/dev/null;; esac\n"
            + "done\n";

    private final Process process;
    private final OutputStream pids;
    private final LauncherLog log;
    private boolean broken;

    private RankReaper(Process process, LauncherLog log) {
        this.process = process;
        this.pids = process == null ? null : process.getOutputStream();
        this.log = log;
        this.broken = process == null;
    }

    /**
     * Starts the reaper of a job; where it cannot be started, warns and returns one that does nothing.
     *
     * @param jobId the job, as ranks carry it in {@code -Dironloop.job=}
     * @param log where the warning goes
     */
    static RankReaper start(String jobId, LauncherLog log) {
        try {
            Process p = new ProcessBuilder(List.of("sh", "-c", SCRIPT, "ironloop-rank-reaper", jobId))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return new RankReaper(p, log);
        } catch (IOException e) {
            log.warn("cannot start the rank reaper (sh: " + e.getMessage() + "): if the launcher is killed (SIGKILL),"
                    + " running ranks halt by themselves but a stopped (SIGSTOP) rank stays until killed by hand");
            return new RankReaper(null, log);
        }
    }

    /** The reaper's own process, if it runs. */
    Optional<ProcessHandle> handle() {
        return process == null ? Optional.empty() : Optional.of(process.toHandle());
    }

    /** Adds a rank JVM to kill if the launcher dies. */
    void watch(long pid) {
        if (broken) {
            return;
        }
        try {
            pids.write((pid + "\n").getBytes(StandardCharsets.US_ASCII));
            pids.flush();
        } catch (IOException e) {
            broken = true;
            log.warn("the rank reaper (pid " + process.pid() + ") is gone (" + e.getMessage() + "): if the launcher is"
                    + " killed (SIGKILL), a stopped (SIGSTOP) rank stays until killed by hand");
        }
    }

    /** Closes the pipe: the reaper kills what is left of the job's ranks (normally nothing) and exits. */
    @Override
    public void close() {
        if (pids == null) {
            return;
        }
        try {
            pids.close();
        } catch (IOException e) {
            // the reaper is gone already: nothing is left to tell it
        }
    }
}
