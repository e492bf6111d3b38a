package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import io.ironloop.group.launch.FreePorts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The rank JVMs of one attempt: starts them on fresh loopback ports, records their exits, and signals the
 * ones still running. Knows nothing of why: the attempt decides whom to stop and when. Used by the supervisor
 * thread.
 */
final class AttemptRanks {
    private final JobAttempt.Job job;
    private final int attempt;
    private final RankProcess[] processes;
    private final Integer[] statuses;
    private int live;

    AttemptRanks(JobAttempt.Job job, int attempt) {
        this.job = job;
        this.attempt = attempt;
        int size = job.spec().worldSize();
        this.processes = new RankProcess[size];
        this.statuses = new Integer[size];
    }

    /**
     * Starts every rank: fresh loopback ports for their group, then one JVM per rank ({@link RankInvocation}),
     * watched by the job's reaper; each start is in the timeline.
     *
     * @throws LaunchException if the ports cannot be found or a JVM cannot be started
     */
    void start() {
        LaunchSpec spec = job.spec();
        int size = processes.length;
        String peers;
        try {
            peers = FreePorts.loopbackPeers(FreePorts.allocate(size));
        } catch (IOException e) {
            throw new LaunchException("cannot find " + size + " free loopback ports for the ranks: " + e.getMessage(), e);
        }
        job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.ATTEMPT_STARTED,
                fields("attempt", attempt, "peers", peers));
        RankHosts hosts = RankHosts.of(spec);
        RankInvocation invocation = new RankInvocation(job.id(), job.secretFile(), job.control(), job.classpath(), spec,
                attempt, peers);
        for (int r = 0; r < size; r++) {
            try {
                java.util.Map<String, String> env;
                if (job.sites().isPresent()) { // where the site table puts the rank now (docs/sites.md)
                    SiteProtectors sites = job.sites().get();
                    env = invocation.environment(r, sites.hostOf(r, hosts.of(r)), java.util.Optional.of(sites.siteOf(r)));
                    env.putAll(sites.environment());
                } else {
                    env = invocation.environment(r, hosts.of(r), hosts.siteOf(r));
                }
                processes[r] = RankProcess.start(invocation.command(r), env, spec, attempt, r, job.log(), job.queue()::add);
                job.processes().add(processes[r]);
                job.reaper().watch(processes[r].pid());
            } catch (IOException e) {
                throw new LaunchException("cannot start rank " + r + " with " + spec.javaExecutable() + ": "
                        + e.getMessage(), e);
            }
            live++;
            job.timeline().supervisor(attempt, r, processes[r].pid(), TimelineEvent.RANK_STARTED, fields());
        }
    }

    /** The processes, indexed by rank (null before {@link #start}): for {@link StoppedRanks}, which watches them. */
    RankProcess[] processes() {
        return processes;
    }

    RankProcess process(int rank) {
        return processes[rank];
    }

    int size() {
        return processes.length;
    }

    /** How many ranks have not exited. */
    int live() {
        return live;
    }

    /** Whether rank {@code r}'s exit was recorded. */
    boolean exited(int r) {
        return statuses[r] != null;
    }

    /** Whether rank {@code r} has not exited and its process is alive. */
    boolean running(int r) {
        return statuses[r] == null && processes[r] != null && processes[r].isAlive();
    }

    /**
     * Records rank {@code r}'s exit.
     *
     * @return false if it was recorded already
     */
    boolean recordExit(int r, int status) {
        if (statuses[r] != null) {
            return false;
        }
        statuses[r] = status;
        live--;
        return true;
    }

    /** Sends SIGTERM to every running rank not {@code skipped}; returns them. */
    List<Integer> terminate(IntPredicate skipped) {
        List<Integer> stopped = new ArrayList<>();
        for (int r = 0; r < processes.length; r++) {
            if (running(r) && !skipped.test(r)) {
                processes[r].terminate();
                stopped.add(r);
            }
        }
        return stopped;
    }

    /** Kills (SIGKILL, with their descendants) the running ranks; returns them. */
    List<Integer> killRunning() {
        List<Integer> killed = new ArrayList<>();
        for (int r = 0; r < processes.length; r++) {
            if (running(r)) {
                processes[r].killTree();
                killed.add(r);
            }
        }
        return killed;
    }

    /** Forwards {@code signal} to the running ranks (SIGTERM to one it cannot reach); returns them. */
    List<Integer> forward(LauncherSignal signal) {
        List<Integer> forwarded = new ArrayList<>();
        for (int r = 0; r < processes.length; r++) {
            if (running(r)) {
                try {
                    processes[r].signal(signal);
                } catch (IOException e) {
                    job.log().warn("could not send " + signal.signalName() + " to rank " + r + " (" + e.getMessage()
                            + "); sending SIGTERM instead");
                    processes[r].terminate();
                }
                forwarded.add(r);
            }
        }
        return forwarded;
    }

    /** Waits for each rank's output to be forwarded in full. */
    void awaitOutput(Duration timeout) throws InterruptedException {
        for (RankProcess p : processes) {
            p.awaitOutput(timeout);
        }
    }

    /** Kills every process still alive (the attempt's end, however it ends). */
    void killAll() {
        for (RankProcess p : processes) {
            if (p != null && p.isAlive()) {
                p.killTree();
            }
        }
    }
}
